import type { AgentdConfig } from '../config/config-schema.js';
import type { SessionManager } from '../session/session-manager.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { HookRunner } from '../tools/hooks/hook-runner.js';
import type { McpManager } from '../tools/mcp/mcp-manager.js';
import type { ClientTools } from '../tools/remote/client-tools.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ClientConnection } from './client-connection.js';

/** The daemon-wide state every handler can reach. */
export interface DaemonContext {
  sessions: SessionManager;
  /** Whether bash runs in bubblewrap; clients are told in session/new `_meta.agentd.sandbox`. */
  sandbox: Promise<SandboxInfo>;
  /** The models a client may pick (configured providers only) and the default. */
  models: { choices(): Array<{ value: string; name: string }>; defaultModel(): string | undefined };
  /** Every tool any session can call: built-in, client-registered, MCP. */
  tools: ToolRegistry;
  /** Tools clients registered (`tools/register`), by the connection that runs them. */
  clientTools: ClientTools;
  /** MCP servers: config ones for every session, and each session's own. */
  mcp: McpManager;
  /** Config command hooks and client hooks (`hooks/register`) around every tool call. */
  hooks: HookRunner;
  /** Every connected client, for asking permission and routing client tools. */
  clients: Set<ClientConnection>;
  config: AgentdConfig;
  /** agentd's package version. */
  version: string;
  log(line: string): void;
}
