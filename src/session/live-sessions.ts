import type { SessionRecord, Store } from '../store/store.js';
import type { Session } from './session.js';
import { SessionNotFoundError } from './session-errors.js';

/**
 * The daemon's live sessions by id, and the lookups that fall back to the store. Made
 * before anything that needs to find a session (the permission asker, MCP servers'
 * requests, hooks), and filled by the SessionManager as sessions go live and unload:
 * what finds sessions never needs the manager that makes them.
 */
export class LiveSessions {
  private readonly live = new Map<string, Session>();

  constructor(private readonly store: Store) {}

  get(id: string): Session | undefined {
    return this.live.get(id);
  }

  /** Every live session. */
  all(): Session[] {
    return [...this.live.values()];
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  /** The record of a live session (hooks run for running turns); throws SessionNotFoundError. */
  liveRecord(id: string): SessionRecord {
    const record = this.live.get(id)?.record;
    if (!record) throw new SessionNotFoundError(id);
    return record;
  }

  /** The record of a live or stored session; rejects with SessionNotFoundError. */
  async record(id: string): Promise<SessionRecord> {
    const record = this.live.get(id)?.record ?? (await this.store.getSession(id));
    if (!record) throw new SessionNotFoundError(id);
    return record;
  }

  /**
   * The top-level session a sub-agent session belongs to (itself when it is not one), from
   * the live sessions: asked when a running turn asks something, and a sub-agent runs
   * inside its parent's turn, so its parents are live; the walk stops at one that is not.
   */
  rootOf(id: string): string {
    let current = id;
    for (let depth = 0; depth < 16; depth++) {
      const parent = this.live.get(current)?.record.meta.parentSessionId;
      if (parent === undefined) return current;
      current = parent;
    }
    return current;
  }

  /** The SessionManager's: a session went live. */
  add(session: Session): void {
    this.live.set(session.id, session);
  }

  /** The SessionManager's: a session was unloaded. */
  remove(session: Session): void {
    this.live.delete(session.id);
  }
}
