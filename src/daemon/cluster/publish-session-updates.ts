import type { Session } from '../../session/session.js';
import type { SessionEvent } from '../../session/session-event.js';
import { sessionEventToJson } from '../../session/session-event-json.js';
import type { NewSessionUpdate, PostgresSessionUpdates } from '../../store/postgres-session-updates.js';

/** Waits before the attempts after a failed append; then the batch is given up (and logged). */
const RETRY_MS = [250, 500, 1_000];

/**
 * What a session shows its clients outside any turn too (session/set_mode, set_model, a
 * queue's delivery mode; a title): published with no turn, and so is everything a
 * compaction outside a turn (session/compact) shows. The rest outside a turn is this
 * daemon's own (its MCP servers' starts, its notices).
 */
const SHOWN_OUTSIDE_TURNS: ReadonlySet<SessionEvent['type']> = new Set(['mode_changed', 'settings_changed', 'session_info']);

/** One session's updates on their way to the table. */
interface Outbox {
  /** The turn running here, from its turn_start to its turn_end. */
  turnId: string | undefined;
  /** A compaction running here outside a turn, from its start to its end. */
  compacting: boolean;
  pending: NewSessionUpdate[];
  /** Set while batches are being appended. */
  sending: Promise<void> | undefined;
  /** Set once the session was unloaded: the outbox goes once its turn has ended and been appended. */
  stopped: boolean;
  unsubscribe: () => void;
}

/**
 * Appends the events each turn run here shows its followers (turn_start to turn_end), and
 * what a session shows outside a turn (SHOWN_OUTSIDE_TURNS), to the session_updates table, in the order
 * sent: the events of one tick are one batch, and a batch is appended only after the one
 * before it. Every batch NOTIFYs the other daemons. A turn's permission questions go the
 * same way (publishQuestion), between the events they come after and before.
 */
export class SessionUpdatePublisher {
  private readonly outboxes = new Map<string, Outbox>();
  /** Events of other daemons' turns, shown here through the same stream: never published again. */
  private readonly relayed = new WeakSet<SessionEvent>();

  constructor(
    private readonly updates: PostgresSessionUpdates,
    private readonly daemonId: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Publishes the session's turns from now on; returns the function that stops. A session
   * is unloaded before its running turn is aborted (close, shutdown): the turn's end, which
   * other daemons' followers wait for, is still published.
   */
  follow(session: Session): () => void {
    const outbox: Outbox = { turnId: undefined, compacting: false, pending: [], sending: undefined, stopped: false, unsubscribe: () => undefined };
    this.outboxes.set(session.id, outbox);
    outbox.unsubscribe = session.subscribe((event) => this.observe(session.id, outbox, event));
    return () => {
      outbox.stopped = true;
      this.retire(session.id, outbox);
    };
  }

  /** Marks an event of another daemon's turn, about to be shown here, as not this daemon's to publish. */
  fromElsewhere(event: SessionEvent): SessionEvent {
    this.relayed.add(event);
    return event;
  }

  /** Whether a turn of the session runs here or its updates are still being appended. */
  writing(sessionId: string): boolean {
    const outbox = this.outboxes.get(sessionId);
    return outbox !== undefined && (outbox.turnId !== undefined || outbox.sending !== undefined);
  }

  /** Resolves once every batch asked for so far has been appended or given up (shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.outboxes.values()].map((outbox) => outbox.sending));
  }

  /**
   * Puts a permission question of the session's running turn (or its settling) after what
   * the turn has shown so far; false when no turn of the session runs here.
   */
  publishQuestion(sessionId: string, kind: 'permission_asked' | 'permission_settled', payload: object): boolean {
    const outbox = this.outboxes.get(sessionId);
    if (outbox?.turnId === undefined) return false;
    this.push(sessionId, outbox, { turnId: outbox.turnId, kind, event: JSON.stringify(payload) });
    return true;
  }

  private observe(sessionId: string, outbox: Outbox, event: SessionEvent): void {
    if (this.relayed.has(event)) return;
    if (event.type === 'turn_start') outbox.turnId = event.turnId;
    if (event.type === 'compaction' && event.status === 'started' && outbox.turnId === undefined) outbox.compacting = true;
    const turnId = outbox.turnId ?? (outbox.compacting || SHOWN_OUTSIDE_TURNS.has(event.type) ? null : undefined);
    if (turnId === undefined) return;
    this.push(sessionId, outbox, { turnId, kind: event.type, event: sessionEventToJson(this.fromHere(event)) });
    if (event.type === 'turn_end') outbox.turnId = undefined;
    if (event.type === 'compaction' && event.status !== 'started') outbox.compacting = false;
  }

  private push(sessionId: string, outbox: Outbox, update: NewSessionUpdate): void {
    outbox.pending.push(update);
    outbox.sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.send(sessionId, outbox));
  }

  /** Appends the outbox's batches one after another until it is empty. */
  private async send(sessionId: string, outbox: Outbox): Promise<void> {
    while (outbox.pending.length > 0) {
      const batch = outbox.pending.splice(0);
      await this.append(sessionId, batch);
      const ended = batch.findLast((update) => update.kind === 'turn_end')?.turnId;
      if (ended) await this.updates.prune(sessionId, ended).catch((error: Error) => this.log(`session updates: cannot prune session ${sessionId}: ${error.message}`));
    }
    outbox.sending = undefined;
    this.retire(sessionId, outbox);
  }

  /** Forgets a stopped session's outbox once nothing of it is left to append. */
  private retire(sessionId: string, outbox: Outbox): void {
    if (!outbox.stopped || outbox.turnId !== undefined || outbox.sending !== undefined) return;
    outbox.unsubscribe();
    if (this.outboxes.get(sessionId) === outbox) this.outboxes.delete(sessionId);
  }

  private async append(sessionId: string, batch: NewSessionUpdate[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.updates.append(sessionId, this.daemonId, batch);
        return;
      } catch (error) {
        const wait = RETRY_MS[attempt];
        if (wait === undefined) {
          this.log(`session updates: gave up ${batch.length} update(s) of session ${sessionId}; its followers on other daemons miss them until the turn ends: ${(error as Error).message}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** A prompt's sender is a connection of this daemon: elsewhere it is nobody's, so every client there is shown the prompt. */
  private fromHere(event: SessionEvent): SessionEvent {
    if (event.type !== 'user_message' || event.origin === undefined) return event;
    return { ...event, origin: `${this.daemonId}/${event.origin}` };
  }
}
