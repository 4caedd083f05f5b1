import type { ContentBlock } from '../../protocol/index.js';
import type { CommitMeta } from '../loop/loop-context.js';
import type { TurnStopReason } from '../loop/loop-event.js';
import type { ModelMessage, UserMessage } from '../providers/message.js';
import type { SessionRecord, Store, TurnStatus } from '../store/store.js';
import { titleFromPrompt } from './title-from-prompt.js';
import type { SessionEvent } from './session-event.js';
import { SHOWN_TOOL_CALLS, ShownLive } from './shown-live.js';
import { guardStoreWrite } from './store-write-error.js';

/**
 * Writes one session's turns and messages to the store, each message in its own
 * transaction, and announces each only after it is stored. A failed write throws
 * StoreWriteError; a turn whose end could not be recorded is recorded before the next
 * turn starts, so no turn stays 'running' in the store while its daemon lives.
 */
export class SessionWriter {
  private readonly userBlocks = new WeakMap<UserMessage, { blocks: ContentBlock[]; origin: string | undefined }>();
  private turnId: string | undefined;
  private readonly shown = new ShownLive();
  private unrecordedEnd: { turnId: string; status: Exclude<TurnStatus, 'running' | 'interrupted'>; error: string | null } | undefined;

  constructor(
    public record: SessionRecord,
    private readonly store: Store,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  /** Keeps the ACP blocks a user message came from, for replay and for other clients. */
  remember(message: UserMessage, blocks: ContentBlock[], origin: string | undefined): void {
    this.userBlocks.set(message, { blocks, origin });
  }

  /** Sees every event the loop publishes, to store what live clients were shown with the message. */
  observe(event: SessionEvent): void {
    this.shown.observe(event);
  }

  startTurn(turnId: string): void {
    const previous = this.unrecordedEnd;
    if (previous) {
      guardStoreWrite('the end of the previous turn', () => this.store.endTurn(previous.turnId, previous.status, previous.error));
      this.unrecordedEnd = undefined;
    }
    guardStoreWrite('the start of the turn', () => this.store.startTurn(this.record.id, turnId));
    this.turnId = turnId;
    this.emit({ type: 'turn_start', turnId });
  }

  /** Records and announces the turn's end; the announcement goes out even when the record fails. */
  endTurn(status: Exclude<TurnStatus, 'running' | 'interrupted'>, error: string | null): void {
    const turnId = this.turnId;
    if (!turnId) return;
    this.turnId = undefined;
    const stopReason: TurnStopReason = status === 'error' ? 'end_turn' : status;
    try {
      guardStoreWrite('the end of the turn', () => this.store.endTurn(turnId, status, error));
    } catch (failure) {
      this.unrecordedEnd = { turnId, status, error };
      this.emit({ type: 'turn_end', turnId, stopReason: 'end_turn', error: (failure as Error).message });
      throw failure;
    }
    this.emit({ type: 'turn_end', turnId, stopReason, ...(error ? { error } : {}) });
  }

  commit(message: ModelMessage, meta: CommitMeta): void {
    const user = message.role === 'user' ? this.userBlocks.get(message) : undefined;
    const what = message.role === 'user' ? 'the prompt' : message.role === 'assistant' ? "the model's message" : 'the tool results';
    const messageId = message.role === 'assistant' ? this.shown.takeMessageId() : undefined;
    const shownCalls =
      message.role === 'tool' ? this.shown.takeToolCalls(message.content.map((result) => result.toolCallId)) : undefined;
    const extra = { ...(user ? { acp: user.blocks } : {}), ...(shownCalls ? { [SHOWN_TOOL_CALLS]: shownCalls } : {}), ...(meta.meta ?? {}) };
    const stored = guardStoreWrite(what, () => this.store.appendMessage({
      ...(messageId !== undefined ? { id: messageId } : {}),
      sessionId: this.record.id,
      turnId: this.turnId ?? 'none',
      role: message.role,
      content: message.content,
      status: meta.status,
      model: message.role === 'assistant' ? (meta.model ?? null) : null,
      usage: meta.usage ?? null,
      costUsd: meta.costUsd ?? null,
      meta: Object.keys(extra).length > 0 ? extra : null,
    }));
    // The session's cost is counted by its CostTracker; the record keeps the time of the last change.
    this.record = { ...this.record, updatedAt: stored.createdAt };
    if (user) {
      this.emit({ type: 'user_message', messageId: stored.id, content: user.blocks, ...(user.origin ? { origin: user.origin } : {}) });
    }
    this.emit({ type: 'message_committed', message, status: meta.status });
  }

  /** Gives an untitled session its title from this prompt (the first one), and tells the clients. */
  titleFrom(blocks: ContentBlock[]): void {
    if (this.record.title) return;
    const title = titleFromPrompt(blocks);
    if (title === undefined) return;
    this.update({ title });
    this.emit({ type: 'session_info', title });
  }

  /** Stores a cost spent for the session outside its messages (an MCP server's sampling). */
  addCost(usd: number): void {
    guardStoreWrite('the cost of a sampling request', () => this.store.addSessionCost(this.record.id, usd));
  }

  /** Changes stored session settings (mode, model, title). */
  update(patch: Partial<Pick<SessionRecord, 'title' | 'model' | 'mode' | 'meta'>>): void {
    this.record = guardStoreWrite('the session settings', () => this.store.updateSession(this.record.id, patch));
  }
}
