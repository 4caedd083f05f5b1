import type { RequestHandler } from '../handler-table.js';

/** Stops the running turn now and answers once it has fully stopped. */
export const sessionAbort: RequestHandler<'session/abort'> = async (params, { daemon, signal }) => {
  const owner = await daemon.routing.ownerElsewhere(params.sessionId);
  if (owner !== undefined) return daemon.routing.forward(owner, 'session/abort', params, signal);
  const session = await daemon.sessions.open(params.sessionId);
  await session.abort({ keepQueues: params.keepQueues === true });
  return { stopped: true };
};
