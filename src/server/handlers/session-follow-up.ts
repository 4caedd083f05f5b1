import type { RequestHandler } from '../handler-table.js';
import { routeOrRunHere } from './route-or-run-here.js';
import { answerQueued } from './answer-queued.js';

/** Queues a message for when the agent would otherwise stop; starts a turn when idle. */
export const sessionFollowUp: RequestHandler<'session/followUp'> = async (params, { client, daemon, signal }) => {
  return routeOrRunHere(daemon, 'session/followUp', params, signal, async () => {
    const session = await daemon.sessions.open(params.sessionId);
    return answerQueued(daemon, session.id, session.submit(params.prompt, { delivery: 'followUp', origin: client.id }));
  });
};
