import type { AgentdConfig } from '../config/config-schema.js';
import type { SessionManager } from '../session/session-manager.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ClientConnection } from './client-connection.js';

/** The daemon-wide state every handler can reach. */
export interface DaemonContext {
  sessions: SessionManager;
  /** Every tool any session can call: built-in, client-registered, MCP. */
  tools: ToolRegistry;
  /** Every connected client, for asking permission and routing client tools. */
  clients: Set<ClientConnection>;
  config: AgentdConfig;
  /** agentd's package version. */
  version: string;
  /** The Unix socket this daemon serves, when it serves one (announced in initialize). */
  socketPath?: string;
  /** The TCP token, when TCP is served; compared in constant time. */
  tcpToken?: string;
  log(line: string): void;
}
