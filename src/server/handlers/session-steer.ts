import type { RequestHandler } from '../handler-table.js';
import { routeOrRunHere } from './route-or-run-here.js';
import { answerQueued } from './answer-queued.js';

/**
 * Delivers a message into the running turn before its next model request, after the
 * tool call now running (`interrupt: true` ends the stream in flight instead); starts
 * a turn when the session is idle. Answers at once with the queue length.
 */
export const sessionSteer: RequestHandler<'session/steer'> = async (params, { client, daemon, signal }) => {
  return routeOrRunHere(daemon, 'session/steer', params, signal, async () => {
    const session = await daemon.sessions.open(params.sessionId);
    const submission = session.submit(params.prompt, { delivery: 'steer', interrupt: params.interrupt === true, origin: client.id });
    return answerQueued(daemon, session.id, submission);
  });
};
