import { detachSession } from '../attach-session.js';
import type { RequestHandler } from '../handler-table.js';

/** Stops the session and deletes it with its whole history. */
export const sessionDelete: RequestHandler<'session/delete'> = async (params, { client, daemon }) => {
  daemon.sessions.record(params.sessionId);
  detachSession(client, params.sessionId);
  await daemon.sessions.delete(params.sessionId);
  await daemon.mcp.stopSession(params.sessionId);
  // Tools its clients registered for this session go with it.
  daemon.tools.unregisterSession(params.sessionId);
  return {};
};
