import type { SessionOverview } from '../../../../protocol/index.js';

/** A change the daemon reports for the session list (`session_changed`, `session_removed`). */
export type SessionListEvent = { type: 'session_changed'; session: SessionOverview } | { type: 'session_removed'; sessionId: string };

/** The list after one event: a changed session replaces its entry (or joins), a removed one leaves; newest activity first. */
export function applySessionEvent(list: readonly SessionOverview[], event: SessionListEvent): SessionOverview[] {
  if (event.type === 'session_removed') return list.filter((session) => session.sessionId !== event.sessionId);
  const others = list.filter((session) => session.sessionId !== event.session.sessionId);
  return sortByActivity([...others, event.session]);
}

/** Newest activity first, as `daemon/sessions` answers. */
export function sortByActivity(list: SessionOverview[]): SessionOverview[] {
  return list.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
}
