import type { ContentBlock } from '../../protocol/index.js';
import type { CommitMeta } from '../loop/loop-context.js';
import type { TurnStopReason } from '../loop/loop-event.js';
import type { ModelMessage, UserMessage } from '../providers/message.js';
import type { NewPendingPrompt } from '../store/pending-prompt-store.js';
import type { SessionMeta } from '../store/session-meta.js';
import type { SessionRecord, Store, TurnStatus } from '../store/store.js';
import { StoreError } from '../store/store-error.js';
import { titleFromPrompt } from './title-from-prompt.js';
import type { SessionEvent } from './session-event.js';
import { SHOWN_TOOL_CALLS, ShownLive } from './shown-live.js';
import { guardStoreWrite } from './store-write-error.js';

/**
 * Writes one session's turns and messages to the store, each message in its own
 * transaction, and announces each only after it is stored. Writes run one at a time in
 * the order they were asked for (a store on a network answers later than it is asked, and
 * a setting changed during a turn must not pass the turn's messages, nor a read-modify-write
 * of the meta another). A failed write rejects with StoreWriteError; a turn whose end could
 * not be recorded is recorded before the next turn starts, so no turn stays 'running' in
 * the store while its daemon lives.
 */
export class SessionWriter {
  private readonly userBlocks = new WeakMap<UserMessage, { blocks: ContentBlock[]; origin: string | undefined; pendingId?: string }>();
  private turnId: string | undefined;
  private readonly shown = new ShownLive();
  private unrecordedEnd: { turnId: string; status: Exclude<TurnStatus, 'running' | 'interrupted'>; error: string | null } | undefined;
  /** Settles when the last write asked for has settled and been announced: the next one starts after it. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Writes asked for and not yet settled. */
  private pending = 0;
  /** Counts every write asked for: unchanged across a read, the read saw no write its clients were not told of. */
  private asked = 0;

  constructor(
    public record: SessionRecord,
    private readonly store: Store,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  /**
   * Keeps the ACP blocks a user message came from, for replay and for other clients, and
   * the pending prompt it delivers, if it waited in a queue (removed with its append).
   */
  remember(message: UserMessage, blocks: ContentBlock[], origin: string | undefined, pendingId?: string): void {
    this.userBlocks.set(message, { blocks, origin, ...(pendingId !== undefined ? { pendingId } : {}) });
  }

  /** Stores a steer or follow-up before it joins a queue, after the writes asked for before it. */
  async keepPending(prompt: NewPendingPrompt): Promise<void> {
    await this.write('the queued prompt', () => this.store.pendingPrompts.add(prompt));
  }

  /** Sees every event the loop publishes, to store what live clients were shown with the message. */
  observe(event: SessionEvent): void {
    this.shown.observe(event);
  }

  /** Resolves once every write asked for so far has settled (a delete waits for it). */
  async settled(): Promise<void> {
    await this.tail;
  }

  /**
   * Runs `read` (of the store) while no write of this session is in flight or starts, so
   * what it returns is exactly what was announced; `read` gets the count of writes asked
   * for so far (0: none ever, the records the session was built from are current).
   */
  async readSettled<T>(read: (writes: number) => Promise<T>): Promise<T> {
    for (;;) {
      await this.settled();
      if (this.pending > 0) continue;
      const asked = this.asked;
      const result = await read(asked);
      if (this.asked === asked) return result;
    }
  }

  async startTurn(turnId: string): Promise<void> {
    await this.write('the start of the turn', async () => {
      const previous = this.unrecordedEnd;
      if (previous) {
        await guardStoreWrite('the end of the previous turn', () => this.store.endTurn(previous.turnId, previous.status, previous.error));
        this.unrecordedEnd = undefined;
      }
      await this.store.startTurn(this.record.id, turnId);
      this.turnId = turnId;
      this.emit({ type: 'turn_start', turnId });
    });
  }

  /** Records and announces the turn's end; the announcement goes out even when the record fails. */
  async endTurn(status: Exclude<TurnStatus, 'running' | 'interrupted'>, error: string | null): Promise<void> {
    const turnId = this.turnId;
    if (!turnId) return;
    this.turnId = undefined;
    const stopReason: TurnStopReason = status === 'error' ? 'end_turn' : status;
    try {
      await this.write('the end of the turn', async () => {
        await this.store.endTurn(turnId, status, error);
        this.emit({ type: 'turn_end', turnId, stopReason, ...(error ? { error } : {}) });
      });
    } catch (failure) {
      // A fenced end is not owed: the daemon that took the session marked the turn interrupted.
      if (!(failure instanceof StoreError && failure.code === 'fenced')) this.unrecordedEnd = { turnId, status, error };
      this.emit({ type: 'turn_end', turnId, stopReason: 'end_turn', error: (failure as Error).message });
      throw failure;
    }
  }

  /** Stores the message, then announces it: no client hears of a message the store does not hold. */
  async commit(message: ModelMessage, meta: CommitMeta): Promise<void> {
    const user = message.role === 'user' ? this.userBlocks.get(message) : undefined;
    const what = message.role === 'user' ? 'the prompt' : message.role === 'assistant' ? "the model's message" : 'the tool results';
    // Taken now: what was shown belongs to this message, whatever is shown while it is written.
    const messageId = message.role === 'assistant' ? this.shown.takeMessageId() : undefined;
    const shownCalls =
      message.role === 'tool' ? this.shown.takeToolCalls(message.content.map((result) => result.toolCallId)) : undefined;
    const extra = { ...(user ? { acp: user.blocks } : {}), ...(shownCalls ? { [SHOWN_TOOL_CALLS]: shownCalls } : {}), ...(meta.meta ?? {}) };
    const turnId = this.turnId ?? 'none';
    await this.write(what, async () => {
      const stored = await this.store.appendMessage({
        ...(messageId !== undefined ? { id: messageId } : {}),
        sessionId: this.record.id,
        turnId,
        role: message.role,
        content: message.content,
        status: meta.status,
        model: message.role === 'assistant' ? (meta.model ?? null) : null,
        usage: meta.usage ?? null,
        costUsd: meta.costUsd ?? null,
        meta: Object.keys(extra).length > 0 ? extra : null,
        ...(user?.pendingId !== undefined ? { pendingPromptId: user.pendingId } : {}),
      });
      // The session's cost is counted by its CostTracker; the record keeps the time of the last change.
      this.record = { ...this.record, updatedAt: stored.createdAt };
      // Announced before the next write starts (emit never throws: a failing listener is logged).
      if (user) {
        this.emit({ type: 'user_message', messageId: stored.id, content: user.blocks, ...(user.origin ? { origin: user.origin } : {}) });
      }
      this.emit({ type: 'message_committed', message, status: meta.status });
    });
  }

  /** Gives an untitled session its title from this prompt (the first one), and tells the clients. */
  async titleFrom(blocks: ContentBlock[]): Promise<void> {
    if (this.record.title) return;
    const title = titleFromPrompt(blocks);
    if (title === undefined) return;
    await this.update({ title });
    this.emit({ type: 'session_info', title });
  }

  /** Stores a cost spent for the session outside its messages (an MCP server's sampling). */
  async addCost(usd: number): Promise<void> {
    await this.write('the cost of a sampling request', () => this.store.addSessionCost(this.record.id, usd));
  }

  /** Changes stored session settings (mode, model, title). */
  async update(patch: Partial<Pick<SessionRecord, 'title' | 'model' | 'mode'>>): Promise<void> {
    await this.write('the session settings', async () => {
      this.record = await this.store.updateSession(this.record.id, patch);
    });
  }

  /** Changes the stored meta from what it is when the write runs, so two changes in flight both stay. */
  async updateMeta(change: (meta: SessionMeta) => SessionMeta): Promise<void> {
    await this.write('the session settings', async () => {
      this.record = await this.store.updateSession(this.record.id, { meta: change(this.record.meta) });
    });
  }

  /** Runs `write` after every write asked for before it; a failure of the database becomes a StoreWriteError naming `what`. */
  private write<T>(what: string, write: () => Promise<T>): Promise<T> {
    this.asked++;
    // None in flight (the usual case): start at once, without waiting a tick for the queue.
    const done = this.pending++ === 0 ? guardStoreWrite(what, write) : this.tail.then(() => guardStoreWrite(what, write));
    const settle = (): void => void this.pending--;
    this.tail = done.then(settle, settle);
    return done;
  }
}
