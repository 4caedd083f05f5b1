import { SessionNotFoundError } from '../../session/session-errors.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../wire/rpc-error.js';
import { sessionTarget } from './session-target.js';

/**
 * ACP cancel: stops the running turn; the prompt answers `cancelled`. Unknown ids are
 * ignored (it is a notification). A session another daemon owns is cancelled there, as is
 * one in a folder this daemon does not serve (a prompt forwarded there may be starting);
 * one no live daemon serves runs nowhere, so there is nothing to cancel.
 */
export const sessionCancel: RequestHandler<'session/cancel'> = async (params, { daemon }) => {
  const target = await sessionTarget(daemon, 'session/cancel', params.sessionId).catch((error: unknown) => {
    if (error instanceof SessionNotFoundError) return undefined;
    if (error instanceof RpcError && (error.data as { kind?: string } | undefined)?.kind === 'no_daemon_for_folder') return undefined;
    throw error;
  });
  if (target !== undefined) await daemon.routing.cancel(target.daemonId, params.sessionId);
  else daemon.sessions.get(params.sessionId)?.cancel();
  return undefined;
};
