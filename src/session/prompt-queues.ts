import type { ContentBlock } from '../../protocol/index.js';
import type { TurnStopReason } from '../loop/loop-event.js';
import type { UserMessage } from '../providers/message.js';

/** `all`: every waiting message is delivered together; `oneAtATime`: one per safe point. */
export type QueueMode = 'all' | 'oneAtATime';
export type QueueName = 'steering' | 'followUp';

/** A message waiting for its turn, and the prompt request waiting for its answer. */
export interface QueuedPrompt {
  message: UserMessage;
  blocks: ContentBlock[];
  origin: string | undefined;
  /** Its row in the store's pending prompts (stored before it joined the queue). */
  pendingId: string;
  done: { resolve(reason: TurnStopReason): void; reject(error: Error): void };
}

/** What clients see of the queues (the `queue` event). */
export interface QueueSnapshot {
  steering: number;
  followUp: number;
  items: Array<{ queue: QueueName; preview: string }>;
}

const PREVIEW_CHARS = 80;

/**
 * The steering and follow-up queues of one session. Messages taken by the loop stay
 * "consumed" until the turn ends, so their prompt requests answer with its stop reason.
 */
export class PromptQueues {
  private readonly modes: Record<QueueName, QueueMode> = { steering: 'all', followUp: 'oneAtATime' };
  private readonly waiting: Record<QueueName, QueuedPrompt[]> = { steering: [], followUp: [] };
  private consumed: QueuedPrompt[] = [];

  constructor(private readonly onChange: (snapshot: QueueSnapshot) => void) {}

  mode(queue: QueueName): QueueMode {
    return this.modes[queue];
  }

  setMode(queue: QueueName, mode: QueueMode): void {
    this.modes[queue] = mode;
  }

  /** Takes up the modes stored with a session (`meta.deliveryModes`, read by the store); unset ones keep theirs. */
  restoreModes(stored: Partial<Record<QueueName, QueueMode>> | undefined): void {
    for (const queue of ['steering', 'followUp'] as const) {
      const mode = stored?.[queue];
      if (mode !== undefined) this.modes[queue] = mode;
    }
  }

  push(queue: QueueName, item: QueuedPrompt): number {
    this.waiting[queue].push(item);
    this.onChange(this.snapshot());
    return this.waiting[queue].length;
  }

  has(queue: QueueName): boolean {
    return this.waiting[queue].length > 0;
  }

  /** Takes what the queue's mode allows now; the items stay owed an answer until settle. */
  take(queue: QueueName): QueuedPrompt[] {
    const list = this.waiting[queue];
    if (list.length === 0) return [];
    const taken = this.modes[queue] === 'all' ? list.splice(0) : list.splice(0, 1);
    this.consumed.push(...taken);
    this.onChange(this.snapshot());
    return taken;
  }

  /** Answers every consumed prompt with the turn's outcome; returns their pending ids (the store's rows of those not delivered go). */
  settle(reason: TurnStopReason, failure: Error | undefined): string[] {
    const consumed = this.consumed.splice(0);
    for (const item of consumed) {
      if (failure) item.done.reject(failure);
      else item.done.resolve(reason);
    }
    return consumed.map((item) => item.pendingId);
  }

  /** Drops everything waiting; each dropped prompt answers with `reason` (abort: `cancelled`) or `failure`. Returns their pending ids. */
  clear(reason: TurnStopReason = 'cancelled', failure?: Error): string[] {
    const dropped = [...this.waiting.steering.splice(0), ...this.waiting.followUp.splice(0)];
    for (const item of dropped) {
      if (failure) item.done.reject(failure);
      else item.done.resolve(reason);
    }
    if (dropped.length > 0) this.onChange(this.snapshot());
    return dropped.map((item) => item.pendingId);
  }

  snapshot(): QueueSnapshot {
    const items = (['steering', 'followUp'] as const).flatMap((queue) =>
      this.waiting[queue].map((item) => ({ queue, preview: preview(item.message) })),
    );
    return { steering: this.waiting.steering.length, followUp: this.waiting.followUp.length, items };
  }
}

function preview(message: UserMessage): string {
  const text = message.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join(' ');
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}
