import type { RequestHandler } from '../handler-table.js';

/** Summarizes the older conversation now; refused while a turn runs. */
export const sessionCompact: RequestHandler<'session/compact'> = async (params, { daemon }) => {
  const session = await daemon.sessions.open(params.sessionId);
  return { compacted: await session.compactNow() };
};
