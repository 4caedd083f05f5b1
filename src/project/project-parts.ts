import type { AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import type { DaemonCostTotals } from '../loop/track-cost.js';
import type { ModelCatalog } from '../providers/catalog/model-catalog.js';
import type { ProviderRegistry } from '../providers/registry/create-provider-registry.js';
import type { HookRunner } from '../tools/hooks/hook-runner.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';
import type { McpServersView } from '../tools/mcp/wait-for-mcp-servers.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { PermissionAsker } from './permission-asker.js';
import type { RememberedWarnings } from './remembered-warnings.js';

/**
 * What every Project shares: the daemon's own parts, built once from the user's config.
 * `userConfig`, `registry`, `catalog` and `sandbox` follow edits of the user's file
 * (Projects.replaceUserConfig); the rest live as long as the daemon.
 */
export interface ProjectParts {
  /** The user's own config (daemon-wide). */
  userConfig: AgentdConfig;
  /** Providers and catalog of the user's config, for every project that does not set `providers`. */
  registry: ProviderRegistry;
  catalog: ModelCatalog;
  /** The sandbox probe for the user's `sandbox.enabled`. */
  sandbox: Promise<SandboxInfo>;
  /** Every tool any session can call: built-in, client-registered, MCP. */
  tools: ToolRegistry;
  /** Who answers permission questions. */
  asker: PermissionAsker;
  /** Config command hooks and client hooks around every tool call. */
  hooks: HookRunner;
  /** The daemon's MCP servers (a turn waits for its session's still starting). */
  mcpServers: McpServersView;
  paths: AgentdPaths;
  /** `--config FILE` and `serve --socket PATH`, hidden from the sandbox like agentd's own folders. */
  configFile?: string;
  socketPath?: string;
  env: NodeJS.ProcessEnv;
  /** `--model`, over every project's default. */
  model?: string;
  /** `--permission-mode`: held by every turn that runs no mode of its own (a scheduled run's). */
  permissionMode?: PermissionMode;
  costTotals: DaemonCostTotals;
  log(line: string): void;
  /** Lines already logged (agent and skill errors), so each is logged once per daemon. */
  warned: Set<string>;
  /** Standing facts shown once per machine (a model missing from the catalog). */
  rememberedWarnings: RememberedWarnings;
  /** The agent-file errors of each session directory as last loaded, for the clients that open a session there. */
  agentProblems: Map<string, string[]>;
}
