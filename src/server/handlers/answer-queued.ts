import type { Submission } from '../../session/session.js';
import type { DaemonContext } from '../daemon-context.js';

/**
 * The answer of session/steer and session/followUp, given at once: the length of the queue
 * the message joined, 0 when it started a turn. Its clients see the turn's end as events;
 * a turn it started that fails is also logged, as nobody waits for its answer.
 */
export function answerQueued(daemon: Pick<DaemonContext, 'log'>, sessionId: string, submission: Submission): { queued: number } {
  if (submission.queued !== undefined) {
    void submission.outcome.catch(() => undefined);
    return { queued: submission.queued };
  }
  void submission.outcome.catch((error: Error) => daemon.log(`session ${sessionId}: ${error.message}`));
  return { queued: 0 };
}
