import { attachSession } from '../acp/attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { queuePrompt } from './queue-prompt.js';

/**
 * Runs a turn and answers `{stopReason}` when it ends. While the session runs, a prompt
 * with `_meta.agentd.delivery` of `steer` or `followUp` joins the running turn;
 * without one it is refused as busy. With `_meta.agentd.queue` the prompt becomes a job of
 * the daemon's work queue and the request answers at once (see queuePrompt). A turn beyond
 * `cluster.concurrency` waits for a slot, busy meanwhile (see TurnSlots). Cancelling the
 * request (`$/cancel_request`) cancels the turn; the client going away does not by itself:
 * the turn runs on while another client follows the session (see stopUnfollowedTurns).
 */
export const sessionPrompt: RequestHandler<'session/prompt'> = async (params, context) => {
  if (params._meta?.agentd?.queue === true) return queuePrompt(params, context.daemon);
  const { client, daemon, signal } = context;
  const session = await daemon.sessions.open(params.sessionId);
  attachSession(client, session);
  // Checked by the params schema (strict): an unknown delivery was refused before here.
  const delivery = params._meta?.agentd?.delivery;
  const onCancel = (): void => {
    if (!client.rpc.closed) session.cancel();
  };
  signal.addEventListener('abort', onCancel, { once: true });
  try {
    const outcome = await session.submit(params.prompt, { ...(delivery ? { delivery } : {}), origin: client.id }).outcome;
    return {
      stopReason: outcome.stopReason,
      ...(outcome.budgetExceeded ? { _meta: { agentd: { outcome: 'budget_exceeded', message: outcome.budgetExceeded } } } : {}),
    };
  } finally {
    signal.removeEventListener('abort', onCancel);
  }
};
