import type { DaemonContext } from '../server/daemon-context.js';

/** Keeps every live session's retries, fallbacks and breaker changes for `daemon/health`, as its stream reports them. */
export function recordProviderIncidents(daemon: DaemonContext): void {
  const unsubscribe = new Map<string, () => void>();
  daemon.sessions.observe({
    opened(session) {
      unsubscribe.set(session.id, session.subscribe((event) => daemon.healthLog.sessionEvent(session.id, event)));
    },
    closed(session) {
      unsubscribe.get(session.id)?.();
      unsubscribe.delete(session.id);
    },
  });
}
