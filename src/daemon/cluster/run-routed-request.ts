import type { ParamsOf, ResultOf } from '../../../protocol/index.js';
import { answerQueued } from '../../server/handlers/answer-queued.js';
import type { RoutedMethod } from '../../server/session-routing.js';
import type { SessionManager } from '../../session/session-manager.js';

/** A request another daemon forwarded to this one, the session's owner. */
export type RoutedRequest = { [M in RoutedMethod]: { method: M; params: ParamsOf<M> } }[RoutedMethod];

/**
 * Runs a forwarded request on the owner as its handler would for a client here, without
 * the client: a prompt's turn has no origin (it runs on when this daemon's clients leave,
 * its questions go to the clients following the session here) and its answer is the turn's
 * stop reason; steer and follow-up answer with their queue's length; abort once stopped.
 */
export async function runRoutedRequest(sessions: SessionManager, log: (line: string) => void, request: RoutedRequest): Promise<ResultOf<RoutedMethod>> {
  const session = await sessions.open(request.params.sessionId);
  switch (request.method) {
    case 'session/prompt': {
      const delivery = request.params._meta?.agentd?.delivery;
      const outcome = await session.submit(request.params.prompt, delivery ? { delivery } : {}).outcome;
      return {
        stopReason: outcome.stopReason,
        ...(outcome.budgetExceeded ? { _meta: { agentd: { outcome: 'budget_exceeded' as const, message: outcome.budgetExceeded } } } : {}),
      };
    }
    case 'session/steer':
      return answerQueued({ log }, session.id, session.submit(request.params.prompt, { delivery: 'steer', interrupt: request.params.interrupt === true }));
    case 'session/followUp':
      return answerQueued({ log }, session.id, session.submit(request.params.prompt, { delivery: 'followUp' }));
    case 'session/abort':
      await session.abort({ keepQueues: request.params.keepQueues === true });
      return { stopped: true };
  }
}
