import type { RequestHandler } from '../handler-table.js';
import { answerQueued } from './answer-queued.js';

/**
 * Delivers a message into the running turn before its next model request, after the
 * tool call now running (`interrupt: true` ends the stream in flight instead); starts
 * a turn when the session is idle. Answers at once with the queue length.
 */
export const sessionSteer: RequestHandler<'session/steer'> = async (params, { client, daemon, signal }) => {
  const owner = await daemon.routing.ownerElsewhere(params.sessionId);
  if (owner !== undefined) return daemon.routing.forward(owner, 'session/steer', params, signal);
  const session = await daemon.sessions.open(params.sessionId);
  const submission = session.submit(params.prompt, { delivery: 'steer', interrupt: params.interrupt === true, origin: client.id });
  return answerQueued(daemon, session.id, submission);
};
