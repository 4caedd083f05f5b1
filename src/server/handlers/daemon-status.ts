import type { DaemonStatusResponse } from '../../../protocol/index.js';
import type { DaemonShell } from '../daemon-shell.js';

/**
 * `daemon/status`: answered from the shell, like initialize, so asking never loads the
 * daemon proper (sessions count as none loaded until it is built).
 */
export function daemonStatus(shell: DaemonShell): DaemonStatusResponse {
  const sessions = shell.built()?.sessions.liveSessions() ?? [];
  return {
    pid: process.pid,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    version: shell.version,
    socket: shell.socketPath ?? null,
    clients: shell.clients.size,
    sessions: { loaded: sessions.length, running: sessions.filter((session) => session.state !== 'idle').length },
    idleExitMs: shell.idleExit?.idleExitMs ?? null,
    logFile: shell.idleExit?.logFile ?? null,
    http: shell.dashboard?.origin() ?? null,
  };
}
