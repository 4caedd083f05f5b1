import type { AgentdConfig } from '../config/config-schema.js';
import type { SessionManager } from '../session/session-manager.js';

/** The daemon-wide state every handler can reach. */
export interface DaemonContext {
  sessions: SessionManager;
  config: AgentdConfig;
  /** agentd's package version. */
  version: string;
  /** The Unix socket this daemon serves, when it serves one (announced in initialize). */
  socketPath?: string;
  /** The TCP token, when TCP is served; compared in constant time. */
  tcpToken?: string;
  log(line: string): void;
}
