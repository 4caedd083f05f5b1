import type { RequestHandler } from '../handler-table.js';

/**
 * ACP cancel: stops the running turn; the prompt answers `cancelled`. Unknown ids are
 * ignored (it is a notification). A session another daemon owns is cancelled there.
 */
export const sessionCancel: RequestHandler<'session/cancel'> = async (params, { daemon }) => {
  const owner = await daemon.routing.ownerElsewhere(params.sessionId);
  if (owner !== undefined) await daemon.routing.cancel(owner, params.sessionId);
  else daemon.sessions.get(params.sessionId)?.cancel();
  return undefined;
};
