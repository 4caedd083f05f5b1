import type { DaemonContext } from '../server/daemon-context.js';
import type { DaemonShell } from '../server/daemon-shell.js';

/** What keeps a daemon started on demand alive; undefined when it has nothing to do. */
export function daemonBusyWith(clients: number, daemon: DaemonContext | undefined): string | undefined {
  if (clients > 0) return `${clients} client(s) connected`;
  if (!daemon) return undefined;
  // First: a job waiting in the daemon's memory may have no live session yet, and is lost if the daemon exits.
  if (daemon.work.held > 0) return 'queued prompts wait';
  const sessions = daemon.sessions.liveSessions();
  if (sessions.some((session) => session.state !== 'idle')) return 'a turn is running';
  if (sessions.some((session) => session.hasQueuedMessages)) return 'messages are queued';
  if (daemon.scheduler.list().some((schedule) => schedule.enabled)) return 'a schedule is enabled';
  return undefined;
}

/**
 * Calls `onIdle` once the daemon has had nothing to do (see daemonBusyWith) for `idleMs`
 * without a break: a daemon `agentd acp` or a client started must not outlive its use,
 * or every bridge that found none leaves one behind. Looks a few times per period, so
 * the exit comes at most a quarter period (or a second) late. Returns a stop function.
 */
export function exitWhenIdle(shell: DaemonShell, idleMs: number, onIdle: () => void): () => void {
  let idleSince = Date.now();
  const timer = setInterval(
    () => {
      if (daemonBusyWith(shell.clients.size, shell.built()) !== undefined) {
        idleSince = Date.now();
        return;
      }
      if (Date.now() - idleSince < idleMs) return;
      clearInterval(timer);
      onIdle();
    },
    Math.max(25, Math.min(1000, Math.floor(idleMs / 4))),
  );
  // The servers keep the process alive; this timer alone must not.
  timer.unref();
  return () => clearInterval(timer);
}
