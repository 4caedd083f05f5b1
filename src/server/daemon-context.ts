import type { AgentdConfig } from '../config/config-schema.js';
import type { ServedFolders } from '../config/served-folders.js';
import type { ProviderScope } from '../project/project-models.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { CrossDaemonUpdates } from '../session/cross-daemon-updates.js';
import type { OpenPermissionQuestions } from '../session/open-permission-questions.js';
import type { SessionManager } from '../session/session-manager.js';
import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import type { SandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import type { DaemonHealthLog } from './daemon-health-log.js';
import type { HookRunner } from '../tools/hooks/hook-runner.js';
import type { McpManager } from '../tools/mcp/mcp-manager.js';
import type { ClientTools } from '../tools/remote/client-tools.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ClientConnection } from './wire/client-connection.js';
import type { WorkQueue } from './work-queue.js';
import type { SessionRouting } from './session-routing.js';

/** What the server (and a test) may ask of the watch on the configuration files. */
export interface ConfigWatchView {
  /** Resolves once the user's watch and every project watch asked for so far are in place. */
  settled(): Promise<void>;
  /** The project roots watched now. */
  watchedProjects(): string[];
}

/**
 * The daemon-wide state every handler can reach: the port through which the server sees
 * the daemon that src/daemon/ builds.
 */
export interface DaemonContext {
  sessions: SessionManager;
  /** Permission questions waiting for an answer, by top-level session (a sub-agent's count for its parent). */
  permissionQuestions: OpenPermissionQuestions;
  /** Whether bash runs in bubblewrap by the user's config (a trusted project may differ: see Project.sandbox). */
  sandbox: Promise<SandboxInfo>;
  /** The user's sandbox policy for bash (what it hides); a trusted project's may add to it. */
  sandboxPolicy: SandboxPolicy;
  /** Every set of providers sessions use now: the user's (project null), then each project's own. */
  providerScopes(): Array<ProviderScope & { project: string | null }>;
  /** Where API keys and base URL variables come from. */
  env: NodeJS.ProcessEnv;
  /** Provider incidents, MCP server states and configuration edits, for `daemon/health`. */
  healthLog: DaemonHealthLog;
  /** Every tool any session can call: built-in, client-registered, MCP. */
  tools: ToolRegistry;
  /** Tools clients registered (`tools/register`), by the connection that runs them. */
  clientTools: ClientTools;
  /** MCP servers: the user config's for every session, and each session's own (its client's and a trusted project's). */
  mcp: McpManager;
  /** Config command hooks and client hooks (`hooks/register`) around every tool call. */
  hooks: HookRunner;
  /** On PostgreSQL: how clients here follow sessions whose turns run on other daemons (absent on SQLite, one daemon). */
  crossDaemonUpdates?: CrossDaemonUpdates;
  /** The store in use: the SQLite file, or the PostgreSQL database (its URL with the password hidden). */
  storeInUse: { type: 'sqlite' | 'postgres'; location: string };
  /** Cron-scheduled headless runs (`schedules/*`); started by buildDaemon, stopped at shutdown. */
  scheduler: Scheduler;
  /** Headless prompts (`_meta.agentd.queue`), taken by a daemon with a free turn slot; started by buildDaemon, stopped at shutdown. */
  work: WorkQueue;
  /** The way to a session's owner when another daemon of the cluster owns it (never, on SQLite). */
  routing: SessionRouting;
  /** The folders whose sessions this daemon serves (`cluster.roots`; none configured: every folder). */
  folders: ServedFolders;
  /** Every connected client, for asking permission and routing client tools. */
  clients: Set<ClientConnection>;
  /** The watch of the configuration files, whose edits apply to the running daemon. */
  reloader: ConfigWatchView;
  /** The user's own config (daemon-wide) as in force now; a session's effective config is `session.project.config`. */
  readonly config: AgentdConfig;
  /** agentd's package version. */
  version: string;
  log(line: string): void;
  /**
   * What is wrong right now for sessions in `cwd` and would otherwise reach only the log:
   * a config edit that was rejected (the last good configuration still applies) and the
   * agent files that failed to load. Told to the clients that open a session there.
   */
  problems(cwd: string): string[];
}
