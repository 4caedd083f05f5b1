import { detachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';

/** Stops the session's turn and its MCP servers and unloads it; its history stays stored. */
export const sessionClose: RequestHandler<'session/close'> = async (params, { client, daemon }) => {
  await daemon.sessions.record(params.sessionId);
  detachSession(client, params.sessionId);
  await daemon.sessions.close(params.sessionId);
  await daemon.mcp.stopSession(params.sessionId);
  // Tools its clients registered for this session go with it.
  daemon.tools.unregisterSession(params.sessionId);
  return {};
};
