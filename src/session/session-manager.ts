import { randomUUID } from 'node:crypto';
import { repairTranscript } from '../loop/repair-transcript.js';
import { historyFromRecords } from './compaction-marker.js';
import type { SessionMeta } from '../store/session-meta.js';
import type { ListSessionsQuery, SessionSearch, SessionSearchPage, MessageRecord, SessionRecord, Store, TurnRecord } from '../store/store.js';
import { Session } from './session.js';
import { SessionNotFoundError } from './session-errors.js';
import type { Project } from '../project/project.js';
import type { LiveSessions } from './live-sessions.js';
import type { SessionLeases } from './session-leases.js';
import type { TurnSlots } from './turn-slots.js';

/** Told when a session goes live and when it is unloaded (a watch per project follows them), and when one is deleted. */
export interface SessionLifecycle {
  /** `created`: made here by create(), so nothing of it was stored or shown before. */
  opened(session: Session, created: boolean): void;
  closed(session: Session): void;
  deleted?(id: string): void;
}

/**
 * Owns the live sessions of the daemon. A session stays live (shared by every
 * connection that opened it) until it is closed or deleted; a closed session is
 * reopened from the store on demand.
 */
export class SessionManager {
  private readonly observers: SessionLifecycle[] = [];
  /** Sessions being read from the store to go live: a second open waits for the first instead of loading a twin. */
  private readonly loading = new Map<string, Promise<{ session: Session; messages: MessageRecord[] }>>();

  constructor(
    readonly store: Store,
    /** Where live sessions are found; this manager adds and removes them. */
    private readonly live: LiveSessions,
    /**
     * The project of a session directory, with its settings as they are now; asked each
     * time a session goes live and before each of its turns and model requests; throws
     * when the directory's settings cannot be loaded.
     */
    private readonly projectFor: (cwd: string) => Project,
    /** The sessions' leases (see SessionLeases): a turn runs on one daemon at a time. */
    readonly leases: SessionLeases,
    /** The daemon's turn slots (`cluster.concurrency`); a sub-agent's turns run in its parent's and take none. */
    private readonly slots?: TurnSlots,
  ) {}

  /** Resolves once the session's row exists (session/new answers after it). */
  async create(input: { cwd: string; additionalDirectories?: string[]; meta?: SessionMeta }): Promise<Session> {
    const project = this.projectFor(input.cwd);
    const record = await this.store.createSession({
      id: randomUUID(),
      cwd: input.cwd,
      additionalDirectories: input.additionalDirectories ?? [],
      mode: project.defaultMode,
      meta: input.meta ?? {},
    });
    const session = new Session(record, [], this.store, project, () => this.projectFor(input.cwd), this.leases, this.slotsFor(record));
    this.goLive(session, true);
    return session;
  }

  /** Replaces a stored session's extra roots; only while it is not live (its tools were built with the old ones). */
  async setAdditionalDirectories(id: string, directories: string[]): Promise<void> {
    if (this.live.has(id) || this.loading.has(id)) throw new Error(`session ${id} is live; its directories cannot change`);
    await this.record(id);
    await this.store.updateSession(id, { additionalDirectories: directories });
  }

  /** The live session, loading it from the store when needed. */
  async open(id: string): Promise<Session> {
    return this.live.get(id) ?? (await this.load(id)).session;
  }

  /**
   * The live session and its stored messages, for a replay (`session/load`). A session
   * loaded by this call is built from the same records, so a long history is read and
   * parsed once, not once for the session and again for the replay.
   */
  async openWithMessages(id: string): Promise<{ session: Session; messages: MessageRecord[]; turns: TurnRecord[] }> {
    const loaded = this.live.has(id) ? undefined : await this.load(id);
    const session = loaded?.session ?? (await this.open(id));
    // Read while none of its writes is in flight: the replay holds exactly what was announced before the client attaches.
    return session.readSettled(async (writes) => ({
      session,
      messages: loaded !== undefined && writes === 0 ? loaded.messages : await this.store.listMessages(id),
      turns: await this.store.listTurns(id),
    }));
  }

  /**
   * A live session idle here takes up what a turn on another daemon stored (its record and
   * history), or with `settingsOnly` what another daemon changed outside a turn (mode, model, meta).
   */
  async refreshFromStore(id: string, settingsOnly = false): Promise<void> {
    const session = this.live.get(id);
    if (!session || session.state !== 'idle') return;
    const record = await this.store.getSession(id);
    if (record && settingsOnly) return session.adoptStored(record);
    const messages = await this.store.listMessages(id);
    if (record) session.adoptStored(record, repairTranscript(historyFromRecords(messages)));
  }

  /** Follows sessions going live and being unloaded. */
  observe(observer: SessionLifecycle): void {
    this.observers.push(observer);
  }

  /** Every live session. */
  liveSessions(): Session[] {
    return this.live.all();
  }

  get(id: string): Session | undefined {
    return this.live.get(id);
  }

  /** Whether the session is live or stored. */
  async exists(id: string): Promise<boolean> {
    return this.live.has(id) || (await this.store.getSession(id)) !== undefined;
  }

  record(id: string): Promise<SessionRecord> {
    return this.live.record(id);
  }

  list(query: ListSessionsQuery): Promise<{ sessions: SessionRecord[]; nextCursor: string | null }> {
    return this.store.listSessions(query);
  }

  /** Sessions of every project by cwd, title and a selection, with their last turns (see searchSessions). */
  search(search: SessionSearch): Promise<SessionSearchPage> {
    return this.store.searchSessions(search);
  }

  /** The session's newest turn, if it has one. */
  lastTurn(id: string): Promise<TurnRecord | undefined> {
    return this.store.lastTurn(id);
  }

  async messages(id: string): Promise<MessageRecord[]> {
    await this.record(id);
    return this.store.listMessages(id);
  }

  turns(id: string): Promise<TurnRecord[]> {
    return this.store.listTurns(id);
  }

  /** Stops any running turn and unloads the session; its history stays in the store. */
  async close(id: string): Promise<void> {
    await this.record(id);
    const session = this.live.get(id);
    if (!session) return;
    this.unload(session);
    await session.abort();
  }

  /** Stops the session's turn and waits for its writes before the rows go: a delete never races a commit. */
  async delete(id: string): Promise<void> {
    await this.loading.get(id)?.catch(() => undefined);
    await this.record(id);
    const session = this.live.get(id);
    if (session) {
      this.unload(session);
      await session.abort();
      await session.writesSettled();
    }
    await this.store.deleteSession(id);
    for (const observer of this.observers) observer.deleted?.(id);
  }

  /** The top-level session a sub-agent session belongs to (itself when it is not one). */
  rootOf(id: string): string {
    return this.live.rootOf(id);
  }

  /** Stops every running turn (daemon shutdown). */
  async shutdown(): Promise<void> {
    const sessions = this.live.all();
    for (const session of sessions) this.unload(session);
    await Promise.all(sessions.map((s) => s.abort()));
  }

  private load(id: string): Promise<{ session: Session; messages: MessageRecord[] }> {
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.read(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  private async read(id: string): Promise<{ session: Session; messages: MessageRecord[] }> {
    const record = await this.store.getSession(id);
    if (!record) throw new SessionNotFoundError(id);
    const project = this.projectFor(record.cwd);
    const messages = await this.store.listMessages(id);
    // Neither step changes the records: repairTranscript returns new messages where it repairs.
    const history = repairTranscript(historyFromRecords(messages));
    const session = new Session(record, history, this.store, project, () => this.projectFor(record.cwd), this.leases, this.slotsFor(record));
    this.goLive(session, false);
    return { session, messages };
  }

  private slotsFor(record: SessionRecord): TurnSlots | undefined {
    return record.meta.parentSessionId === undefined ? this.slots : undefined;
  }

  private goLive(session: Session, created: boolean): void {
    this.live.add(session);
    for (const observer of this.observers) observer.opened(session, created);
  }

  private unload(session: Session): void {
    this.live.remove(session);
    for (const observer of this.observers) observer.closed(session);
  }
}
