import { signal } from '@preact/signals';
import type { SessionOverview } from '../../../../protocol/index.js';
import type { AgentdConnection } from '../../../typescript/src/browser.js';
import { applySessionEvent, sortByActivity, type SessionListEvent } from './apply-session-event.js';

/** Pages of `daemon/sessions` read at most, 500 sessions each. */
const MAX_PAGES = 20;

/** Every session across projects, loaded on each connect and kept live by `session_changed` / `session_removed`. */
export class SessionsStore {
  readonly sessions = signal<readonly SessionOverview[]>([]);
  readonly loaded = signal(false);
  readonly problem = signal<string | null>(null);
  /** Events that came while the list was being read, applied on top of it. */
  private early: SessionListEvent[] | null = null;

  async load(client: AgentdConnection): Promise<void> {
    this.early = [];
    try {
      const all: SessionOverview[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await client.request('daemon/sessions', { limit: 500, ...(cursor ? { cursor } : {}) });
        all.push(...answer.sessions);
        cursor = answer.nextCursor;
        if (!cursor) break;
      }
      let list = sortByActivity(all);
      for (const event of this.early) list = applySessionEvent(list, event);
      this.sessions.value = list;
      this.problem.value = null;
      this.loaded.value = true;
    } catch (error) {
      this.problem.value = `cannot list the sessions: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.early = null;
    }
  }

  apply(event: SessionListEvent): void {
    if (this.early) this.early.push(event);
    else this.sessions.value = applySessionEvent(this.sessions.value, event);
  }

  find(sessionId: string): SessionOverview | undefined {
    return this.sessions.value.find((session) => session.sessionId === sessionId);
  }
}
