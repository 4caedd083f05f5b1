import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '../../protocol/index.js';
import type { TurnStopReason } from '../loop/loop-event.js';
import type { UserMessage } from '../providers/message.js';
import type { PromptQueues, QueuedPrompt, QueueName } from './prompt-queues.js';
import { SessionBusyError } from './session-errors.js';
import type { SessionWriter } from './session-writer.js';
import type { Submission } from './submit-options.js';
import type { PromptOutcome, TurnLifecycle } from './turn-lifecycle.js';

/** The parts of a session a steer or follow-up joining its running turn goes through. */
export interface EnqueueParts {
  sessionId: string;
  writer: SessionWriter;
  queues: PromptQueues;
  turns: TurnLifecycle;
  /** Starts a turn whose prompt is the stored item (its row goes with the prompt's append). */
  startTurn(item: QueuedPrompt): Promise<PromptOutcome>;
}

/**
 * Stores the message as pending, then queues it: nothing waits in a queue that the store
 * does not hold (a daemon that dies leaves it for another daemon to run), and a failed
 * write fails the request with nothing queued. The turn that takes it removes the row in
 * the transaction appending it; a dropped one is removed by the session's turns.
 */
export function enqueuePrompt(parts: EnqueueParts, queue: QueueName, message: UserMessage, blocks: ContentBlock[], options: { origin?: string; interrupt?: boolean }): Submission {
  const { origin } = options;
  const pendingId = randomUUID();
  parts.writer.remember(message, blocks, origin, pendingId);
  let done!: QueuedPrompt['done'];
  const answered = new Promise<TurnStopReason>((resolve, reject) => (done = { resolve, reject }));
  const queued = parts.writer
    .keepPending({ id: pendingId, sessionId: parts.sessionId, queue, content: blocks, origin: origin ?? null })
    .then(() => joinQueue(parts, queue, { message, blocks, origin, pendingId, done }, options.interrupt === true))
    .catch((error: Error) => {
      done.reject(error);
      throw error;
    });
  // Callers that wait only for the outcome hear of a failure there.
  void queued.catch(() => undefined);
  return { queued, outcome: answered.then((stopReason) => ({ stopReason })) };
}

/**
 * A stored message joins the running turn's queue. When that turn ended while it was being
 * stored, it starts the next turn itself, as that turn's prompt.
 */
async function joinQueue(parts: EnqueueParts, queue: QueueName, item: QueuedPrompt, interrupt: boolean): Promise<number | undefined> {
  const { turns } = parts;
  const state = turns.state;
  if (state === 'running' || state === 'aborting') {
    const length = parts.queues.push(queue, item);
    if (interrupt && queue === 'steering') turns.current?.interrupt();
    return length;
  }
  if (state === 'compacting') {
    await turns.dropPending([item.pendingId]);
    throw new SessionBusyError(parts.sessionId);
  }
  let outcome: Promise<PromptOutcome>;
  try {
    outcome = parts.startTurn(item);
  } catch (error) {
    // Refused before it started (its model cannot be resolved): nothing will deliver it.
    await turns.dropPending([item.pendingId]);
    throw error;
  }
  // Removed with the prompt's append; still there when the turn failed before it.
  void outcome
    .finally(() => turns.dropPending([item.pendingId]))
    .then((result) => item.done.resolve(result.stopReason), (error: Error) => item.done.reject(error));
  return undefined;
}
