import type { ClientConnection } from './wire/client-connection.js';
import type { DaemonContext } from './daemon-context.js';
import type { DashboardService } from './http/dashboard-service.js';

/**
 * What the server needs before the daemon proper exists: enough to accept connections
 * and answer `initialize`. The sessions, providers, tools and store load behind
 * `context()`, on first need, so a client gets its first answer without waiting for them.
 */
export interface DaemonShell {
  /** agentd's package version. */
  version: string;
  /** The Unix socket served, when one is (announced in initialize). */
  socketPath?: string;
  /** Set when started on demand: it exits after idleExitMs with nothing to do, and logs to logFile. */
  idleExit?: { idleExitMs: number; logFile: string };
  /** The TCP token, when TCP is served. */
  tcpToken?: string;
  /** Largest accepted message, bytes. */
  maxFrameBytes: number;
  /** The web dashboard (served over HTTP at start or on the first `dashboard/login`); absent where none may be served. */
  dashboard?: DashboardService;
  /** Every connected client (the daemon asks them for permission and runs their tools). */
  clients: Set<ClientConnection>;
  log(line: string): void;
  /** The whole daemon; built once, on the first call. */
  context(): Promise<DaemonContext>;
  /** The daemon if it is built already, without building it (to look, not to use). */
  built(): DaemonContext | undefined;
}
