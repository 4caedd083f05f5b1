import { randomUUID } from 'node:crypto';
import { repairTranscript } from '../loop/repair-transcript.js';
import { historyFromRecords } from './compaction-marker.js';
import type { SessionMeta } from '../store/session-meta.js';
import type { ListSessionsQuery, MessageRecord, SessionRecord, Store, TurnRecord } from '../store/store.js';
import { Session } from './session.js';
import { SessionNotFoundError } from './session-errors.js';
import type { SessionServices } from './session-services.js';

/** Told when a session goes live and when it is unloaded (a watch per project follows them). */
export interface SessionLifecycle {
  opened(session: Session): void;
  closed(session: Session): void;
}

/**
 * Owns the live sessions of the daemon. A session stays live (shared by every
 * connection that opened it) until it is closed or deleted; a closed session is
 * reopened from the store on demand.
 */
export class SessionManager {
  private readonly live = new Map<string, Session>();
  private readonly observers: SessionLifecycle[] = [];

  constructor(
    readonly store: Store,
    /**
     * The services of a session directory, from that directory's settings, resolved each
     * time a session goes live (created or reopened); throws when they cannot be loaded.
     */
    private readonly servicesFor: (cwd: string) => SessionServices,
  ) {}

  create(input: { cwd: string; additionalDirectories?: string[]; meta?: SessionMeta }): Session {
    const services = this.servicesFor(input.cwd);
    const record = this.store.createSession({
      id: randomUUID(),
      cwd: input.cwd,
      additionalDirectories: input.additionalDirectories ?? [],
      mode: services.defaultMode,
      meta: input.meta ?? {},
    });
    const session = new Session(record, [], this.store, services, () => this.servicesFor(input.cwd));
    this.goLive(session);
    return session;
  }

  /** Replaces a stored session's extra roots; only while it is not live (its tools were built with the old ones). */
  setAdditionalDirectories(id: string, directories: string[]): void {
    if (this.live.has(id)) throw new Error(`session ${id} is live; its directories cannot change`);
    this.record(id);
    this.store.updateSession(id, { additionalDirectories: directories });
  }

  /** The live session, loading it from the store when needed. */
  open(id: string): Session {
    return this.live.get(id) ?? this.load(id).session;
  }

  /**
   * The live session and its stored messages, for a replay (`session/load`). A session
   * loaded by this call is built from the same records, so a long history is read and
   * parsed once, not once for the session and again for the replay.
   */
  openWithMessages(id: string): { session: Session; messages: MessageRecord[] } {
    const existing = this.live.get(id);
    if (existing) return { session: existing, messages: this.store.listMessages(id) };
    return this.load(id);
  }

  /** Follows sessions going live and being unloaded. */
  observe(observer: SessionLifecycle): void {
    this.observers.push(observer);
  }

  /** Every live session. */
  liveSessions(): Session[] {
    return [...this.live.values()];
  }

  get(id: string): Session | undefined {
    return this.live.get(id);
  }

  /** Whether the session is live or stored. */
  exists(id: string): boolean {
    return this.live.has(id) || this.store.getSession(id) !== undefined;
  }

  record(id: string): SessionRecord {
    const record = this.live.get(id)?.record ?? this.store.getSession(id);
    if (!record) throw new SessionNotFoundError(id);
    return record;
  }

  list(query: ListSessionsQuery): { sessions: SessionRecord[]; nextCursor: string | null } {
    return this.store.listSessions(query);
  }

  messages(id: string): MessageRecord[] {
    this.record(id);
    return this.store.listMessages(id);
  }

  turns(id: string): TurnRecord[] {
    return this.store.listTurns(id);
  }

  /** Stops any running turn and unloads the session; its history stays in the store. */
  async close(id: string): Promise<void> {
    this.record(id);
    const session = this.live.get(id);
    if (!session) return;
    this.unload(session);
    await session.abort();
  }

  async delete(id: string): Promise<void> {
    this.record(id);
    const session = this.live.get(id);
    if (session) this.unload(session);
    if (session) await session.abort();
    this.store.deleteSession(id);
  }

  /** The top-level session a sub-agent session belongs to (itself when it is not one). */
  rootOf(id: string): string {
    let current = id;
    for (let depth = 0; depth < 16; depth++) {
      const parent = this.store.getSession(current)?.meta.parentSessionId;
      if (parent === undefined) return current;
      current = parent;
    }
    return current;
  }

  /** Stops every running turn (daemon shutdown). */
  async shutdown(): Promise<void> {
    const sessions = [...this.live.values()];
    for (const session of sessions) this.unload(session);
    await Promise.all(sessions.map((s) => s.abort()));
  }

  private load(id: string): { session: Session; messages: MessageRecord[] } {
    const record = this.store.getSession(id);
    if (!record) throw new SessionNotFoundError(id);
    const services = this.servicesFor(record.cwd);
    const messages = this.store.listMessages(id);
    // Neither step changes the records: repairTranscript returns new messages where it repairs.
    const history = repairTranscript(historyFromRecords(messages));
    const session = new Session(record, history, this.store, services, () => this.servicesFor(record.cwd));
    this.goLive(session);
    return { session, messages };
  }

  private goLive(session: Session): void {
    this.live.set(session.id, session);
    for (const observer of this.observers) observer.opened(session);
  }

  private unload(session: Session): void {
    this.live.delete(session.id);
    for (const observer of this.observers) observer.closed(session);
  }
}
