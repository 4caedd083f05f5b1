import type { Submission } from '../../session/session.js';
import type { DaemonContext } from '../daemon-context.js';

/**
 * The answer of session/steer and session/followUp, given once the message is stored: the
 * length of the queue it joined, 0 when it started a turn. Its clients see the turn's end as events;
 * a turn it started that fails is also logged, as nobody waits for its answer.
 */
export async function answerQueued(daemon: Pick<DaemonContext, 'log'>, sessionId: string, submission: Submission): Promise<{ queued: number }> {
  // Answered once the message is stored: a store that refuses it fails the request.
  const queued = await submission.queued.catch((error: unknown) => {
    void submission.outcome.catch(() => undefined);
    throw error;
  });
  if (queued !== undefined) {
    void submission.outcome.catch(() => undefined);
    return { queued };
  }
  void submission.outcome.catch((error: Error) => daemon.log(`session ${sessionId}: ${error.message}`));
  return { queued: 0 };
}
