import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '../../protocol/index.js';
import type { LoopContext } from '../loop/loop-context.js';
import type { TurnStopReason } from '../loop/loop-event.js';
import { runLoop } from '../loop/run-loop.js';
import type { ModelMessage, UserMessage } from '../providers/message.js';
import type { ProviderError } from '../providers/provider-error.js';
import type { Usage } from '../providers/usage.js';
import type { SessionRecord, Store } from '../store/store.js';
import { FileStateTracker } from '../tools/file-state-tracker.js';
import { convertPrompt } from './convert-prompt.js';
import type { SessionEvent } from './session-event.js';
import type { SessionServices } from './session-services.js';

/** How a prompt sent while a turn runs is delivered. */
export type PromptDelivery = 'steer' | 'followUp';

/** Thrown when a prompt arrives for a running session without a delivery mode. */
export class SessionBusyError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} is busy`);
  }
}

/** The turn ended because the provider failed; the prompt is answered with this error. */
export class TurnFailedError extends Error {
  constructor(readonly providerError: ProviderError) {
    super(providerError.message);
  }
}

interface QueuedPrompt {
  message: UserMessage;
  blocks: ContentBlock[];
  done: { resolve(reason: TurnStopReason): void; reject(error: Error): void };
}

/**
 * One conversation: its history, its state (idle or running one turn) and its event
 * stream. Every committed message goes to the store before its event goes out.
 */
export class Session {
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private readonly steering: QueuedPrompt[] = [];
  private readonly followUps: QueuedPrompt[] = [];
  private readonly acpBlocks = new WeakMap<UserMessage, { blocks: ContentBlock[]; origin: string | undefined }>();
  private controller: AbortController | undefined;
  private running: Promise<TurnStopReason> | undefined;
  private turnId: string | undefined;
  private origin: string | undefined;
  private consumed: QueuedPrompt[] = [];

  constructor(
    public record: SessionRecord,
    readonly history: ModelMessage[],
    private readonly store: Store,
    private readonly services: SessionServices,
  ) {}

  get id(): string {
    return this.record.id;
  }

  get state(): 'idle' | 'running' {
    return this.running ? 'running' : 'idle';
  }

  /** Receives every event from now on; returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs a turn for the prompt and resolves with its stop reason. While a turn runs, a
   * prompt with a delivery mode joins it (steer: before the next model call; followUp:
   * when the model would stop) and resolves when that turn ends.
   */
  prompt(blocks: ContentBlock[], options: { delivery?: PromptDelivery; origin?: string } = {}): Promise<TurnStopReason> {
    const { delivery, origin } = options;
    const message: UserMessage = { role: 'user', content: convertPrompt(blocks) };
    this.acpBlocks.set(message, { blocks, origin });
    if (this.running) {
      if (!delivery) return Promise.reject(new SessionBusyError(this.id));
      return new Promise((resolve, reject) => {
        (delivery === 'steer' ? this.steering : this.followUps).push({ message, blocks, done: { resolve, reject } });
      });
    }
    // Resolve the model before anything is stored, so a misconfiguration loses nothing.
    const model = this.services.resolveModel(this.record.model);
    const turnId = randomUUID();
    this.turnId = turnId;
    this.origin = origin;
    this.controller = new AbortController();
    this.store.startTurn(this.id, turnId);
    this.emit({ type: 'turn_start', turnId });
    this.history.push(message);
    this.commit(message, { status: 'complete' });

    const run = async (): Promise<TurnStopReason> => {
      const ctx: LoopContext = {
        model: model.model,
        modelRef: model.ref,
        system: this.services.buildSystemPrompt(this.record),
        tools: this.services.toolSpecs(this.record),
        history: this.history,
        maxTurns: this.services.maxTurns,
        signal: this.controller!.signal,
        contextWindow: model.contextWindow,
        emit: (event) => this.emit(event),
        commit: (msg, meta) => this.commit(msg, meta, model.ref),
        price: model.price,
        runTools: (calls, assistant, signal) => this.services.runTools(this, calls, assistant, signal),
        sessionCostUsd: () => this.record.totalCostUsd,
        takeSteering: () => this.take(this.steering.splice(0)),
        takeFollowUp: () => this.take(this.followUps.splice(0, 1))[0],
      };
      if (model.maxTokens !== undefined) ctx.maxTokens = model.maxTokens;
      const result = await runLoop(ctx).catch((error: Error) => ({ stopReason: 'end_turn' as const, internal: error }));
      const failure = 'internal' in result ? result.internal : result.error ? new TurnFailedError(result.error) : undefined;
      this.store.endTurn(turnId, failure ? 'error' : result.stopReason, failure?.message ?? null);
      this.emit({ type: 'turn_end', turnId, stopReason: result.stopReason, ...(failure ? { error: failure.message } : {}) });
      this.finishTurn(result.stopReason, failure);
      if (failure) throw failure;
      return result.stopReason;
    };
    const running = run();
    this.running = running;
    return running;
  }

  /** Stops the running turn (ACP session/cancel); the prompt answers `cancelled`. */
  cancel(): void {
    this.controller?.abort();
  }

  /** Stops the running turn and resolves once it has fully stopped. */
  async abort(): Promise<void> {
    const running = this.running;
    this.cancel();
    if (running) await running.catch(() => undefined);
  }

  /** The connection that sent the running prompt, if any. */
  get promptOrigin(): string | undefined {
    return this.running ? this.origin : undefined;
  }

  /** The id of the turn in progress, if any. */
  get currentTurnId(): string | undefined {
    return this.running ? this.turnId : undefined;
  }

  private take(items: QueuedPrompt[]): UserMessage[] {
    this.consumed.push(...items);
    return items.map((item) => item.message);
  }

  private finishTurn(reason: TurnStopReason, failure: Error | undefined): void {
    const waiting = [...this.consumed.splice(0), ...this.steering.splice(0), ...this.followUps.splice(0)];
    this.running = undefined;
    this.controller = undefined;
    for (const item of waiting) {
      if (failure) item.done.reject(failure);
      else item.done.resolve(reason);
    }
  }

  private commit(
    message: ModelMessage,
    meta: { status: 'complete' | 'interrupted'; usage?: Usage; costUsd?: number },
    modelRef?: string,
  ): void {
    const user = message.role === 'user' ? this.acpBlocks.get(message) : undefined;
    const record = this.store.appendMessage({
      sessionId: this.id,
      turnId: this.turnId ?? 'none',
      role: message.role,
      content: message.content,
      status: meta.status,
      model: message.role === 'assistant' ? (modelRef ?? null) : null,
      usage: meta.usage ?? null,
      costUsd: meta.costUsd ?? null,
      meta: user ? { acp: user.blocks } : null,
    });
    this.record = { ...this.record, totalCostUsd: this.record.totalCostUsd + (meta.costUsd ?? 0), updatedAt: record.createdAt };
    if (user) {
      this.emit({ type: 'user_message', messageId: record.id, content: user.blocks, ...(user.origin ? { origin: user.origin } : {}) });
    }
    this.emit({ type: 'message_committed', message, status: meta.status });
  }

  /** Per-session read tracking, so write and edit refuse stale or unseen files. */
  readonly fileState = new FileStateTracker();

  /** True while a steering message waits for the next safe point. */
  hasSteering(): boolean {
    return this.steering.length > 0;
  }

  /** Sends an event to every subscriber (used by the tool runtime). */
  publish(event: SessionEvent): void {
    this.emit(event);
  }

  private emit(event: SessionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.services.log(`session ${this.id}: listener failed: ${(error as Error).message}`);
      }
    }
  }
}
