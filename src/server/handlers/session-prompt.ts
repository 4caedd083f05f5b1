import { attachSession } from '../acp/attach-session.js';
import type { ParamsOf, ResultOf } from '../../../protocol/index.js';
import type { HandlerContext, RequestHandler } from '../handler-table.js';
import { queuePrompt } from './queue-prompt.js';
import { routeOrRunHere } from './route-or-run-here.js';

/**
 * Runs a turn and answers `{stopReason}` when it ends. While the session runs, a prompt
 * with `_meta.agentd.delivery` of `steer` or `followUp` joins the running turn;
 * without one it is refused as busy. With `_meta.agentd.queue` the prompt becomes a job of
 * the daemon's work queue and the request answers at once (see queuePrompt). A turn beyond
 * `cluster.concurrency` waits for a slot, busy meanwhile (see TurnSlots). A session another
 * daemon of the cluster owns is prompted there (see SessionRouting). Cancelling the
 * request (`$/cancel_request`) cancels the turn; the client going away does not by itself:
 * the turn runs on while another client follows the session (see stopUnfollowedTurns).
 */
export const sessionPrompt: RequestHandler<'session/prompt'> = async (params, context) => {
  if (params._meta?.agentd?.queue === true) return queuePrompt(params, context.daemon);
  const { client, daemon, signal } = context;
  // As here: a cancelled request cancels the turn, the client going away does not.
  const cancelled = new AbortController();
  const onCancel = (): void => {
    if (!client.rpc.closed) cancelled.abort();
  };
  signal.addEventListener('abort', onCancel, { once: true });
  try {
    return await routeOrRunHere(daemon, 'session/prompt', params, cancelled.signal, () => promptHere(params, context, cancelled.signal));
  } finally {
    signal.removeEventListener('abort', onCancel);
  }
};

async function promptHere(params: ParamsOf<'session/prompt'>, { client, daemon }: HandlerContext, cancelled: AbortSignal): Promise<ResultOf<'session/prompt'>> {
  const session = await daemon.sessions.open(params.sessionId);
  attachSession(client, session);
  // Checked by the params schema (strict): an unknown delivery was refused before here.
  const delivery = params._meta?.agentd?.delivery;
  const onCancel = (): void => session.cancel();
  cancelled.addEventListener('abort', onCancel, { once: true });
  try {
    const outcome = await session.submit(params.prompt, { ...(delivery ? { delivery } : {}), origin: client.id }).outcome;
    return {
      stopReason: outcome.stopReason,
      ...(outcome.budgetExceeded ? { _meta: { agentd: { outcome: 'budget_exceeded', message: outcome.budgetExceeded } } } : {}),
    };
  } finally {
    cancelled.removeEventListener('abort', onCancel);
  }
}
