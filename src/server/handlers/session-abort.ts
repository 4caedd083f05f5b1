import type { RequestHandler } from '../handler-table.js';
import { routeOrRunHere } from './route-or-run-here.js';

/** Stops the running turn now and answers once it has fully stopped. */
export const sessionAbort: RequestHandler<'session/abort'> = async (params, { daemon, signal }) => {
  return routeOrRunHere(daemon, 'session/abort', params, signal, async () => {
    const session = await daemon.sessions.open(params.sessionId);
    await session.abort({ keepQueues: params.keepQueues === true });
    return { stopped: true };
  });
};
