import { detachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';

/**
 * Stops the session and deletes it with its whole history. Deleting a session that does
 * not exist (never did, or already deleted) succeeds and changes nothing: ACP asks that
 * delete be idempotent, so a client retrying after a lost answer sees no error.
 */
export const sessionDelete: RequestHandler<'session/delete'> = async (params, { client, daemon }) => {
  detachSession(client, params.sessionId);
  if (!(await daemon.sessions.exists(params.sessionId))) return {};
  await daemon.sessions.delete(params.sessionId);
  await daemon.mcp.stopSession(params.sessionId);
  // Tools its clients registered for this session go with it.
  daemon.tools.unregisterSession(params.sessionId);
  return {};
};
