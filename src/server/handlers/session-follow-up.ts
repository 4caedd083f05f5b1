import type { RequestHandler } from '../handler-table.js';

/** Queues a message for when the agent would otherwise stop; starts a turn when idle. */
export const sessionFollowUp: RequestHandler<'session/followUp'> = (params, { client, daemon }) => {
  const session = daemon.sessions.open(params.sessionId);
  return { queued: session.deliver('followUp', params.prompt, { origin: client.id }) };
};
