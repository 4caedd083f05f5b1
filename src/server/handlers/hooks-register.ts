import type { RequestHandler } from '../handler-table.js';

/**
 * Subscribes this client to `hooks/beforeToolCall` / `hooks/afterToolCall` for matching
 * calls; registering again replaces the earlier registration, and the hooks go when
 * this connection closes.
 */
export const hooksRegister: RequestHandler<'hooks/register'> = async (params, { client, daemon }) => {
  if (params.sessionId !== undefined) await daemon.sessions.record(params.sessionId);
  daemon.hooks.register(client.peer, params);
  return { registered: true };
};
