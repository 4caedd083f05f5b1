import type { RequestHandler } from '../handler-table.js';

/** ACP cancel: stops the running turn; the prompt answers `cancelled`. Unknown ids are ignored (it is a notification). */
export const sessionCancel: RequestHandler<'session/cancel'> = (params, { daemon }) => {
  daemon.sessions.get(params.sessionId)?.cancel();
  return undefined;
};
