import { PromptContentError } from '../../session/convert-prompt.js';
import { ModelNotConfiguredError } from '../../session/model-not-configured-error.js';
import { SessionBusyError, TurnFailedError } from '../../session/session.js';
import { ErrorCodes } from '../../../protocol/index.js';
import { attachSession } from '../attach-session.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../rpc-error.js';
import { openSession } from './open-session.js';

/**
 * Runs a turn and answers `{stopReason}` when it ends. While the session runs, a prompt
 * with `_meta.agentd.delivery` of `steer` or `followUp` joins the running turn;
 * without one it is refused as busy. Cancelling the request cancels the turn.
 */
export const sessionPrompt: RequestHandler<'session/prompt'> = async (params, { client, daemon, signal }) => {
  const session = openSession(daemon, params.sessionId);
  attachSession(client, session);
  const delivery = (params._meta as { agentd?: { delivery?: 'steer' | 'followUp' } } | null | undefined)?.agentd?.delivery;
  const onCancel = (): void => session.cancel();
  signal.addEventListener('abort', onCancel, { once: true });
  try {
    const outcome = await session.prompt(params.prompt, { ...(delivery ? { delivery } : {}), origin: client.id });
    return {
      stopReason: outcome.stopReason,
      ...(outcome.budgetExceeded ? { _meta: { agentd: { outcome: 'budget_exceeded', message: outcome.budgetExceeded } } } : {}),
    };
  } catch (error) {
    throw toRpcError(session.id, error);
  } finally {
    signal.removeEventListener('abort', onCancel);
  }
};

function toRpcError(sessionId: string, error: unknown): unknown {
  if (error instanceof SessionBusyError) return RpcError.sessionBusy(sessionId);
  if (error instanceof PromptContentError) return RpcError.invalidParams('session/prompt', [error.message]);
  if (error instanceof ModelNotConfiguredError) return RpcError.providerNotConfigured(error.message);
  if (error instanceof TurnFailedError) {
    const e = error.providerError;
    return new RpcError(ErrorCodes.ProviderError, `${e.provider}: ${e.message}`, {
      kind: e.kind,
      provider: e.provider,
      model: e.model ?? null,
      status: e.status ?? null,
    });
  }
  return error;
}
