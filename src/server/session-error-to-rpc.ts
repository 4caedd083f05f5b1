import { ErrorCodes } from '../../protocol/index.js';
import { ConfigError } from '../config/config-error.js';
import { ModelNotConfiguredError } from '../project/model-not-configured-error.js';
import { PromptContentError, RunTurnBusyError, SessionBusyError, SessionNotFoundError, TurnFailedError } from '../session/session-errors.js';
import { StoreWriteError } from '../session/store-write-error.js';
import { StoreError } from '../store/store-error.js';
import { RpcError } from './wire/rpc-error.js';

/**
 * The session layer's errors as JSON-RPC errors, for every handler at once (dispatch
 * applies it); anything else is passed on unchanged.
 */
export function sessionErrorToRpc(method: string, error: unknown): unknown {
  if (error instanceof SessionNotFoundError) return RpcError.notFound(error.message);
  if (error instanceof RunTurnBusyError) return new RpcError(ErrorCodes.SessionBusy, error.message);
  if (error instanceof SessionBusyError) return RpcError.sessionBusy(error.sessionId);
  if (error instanceof PromptContentError) return RpcError.invalidParams(method, [error.message]);
  // The session's project config (`<cwd>/.agentd/config.json`) is invalid: the message names file, path and fix.
  if (error instanceof ConfigError) return RpcError.invalidParams(method, [error.message]);
  if (error instanceof ModelNotConfiguredError) return RpcError.providerNotConfigured(error.message);
  if (error instanceof TurnFailedError) {
    const e = error.providerError;
    // Most provider messages already start with the provider's name ("local 400: ..."); say it once.
    const message = e.message.startsWith(e.provider) ? e.message : `${e.provider}: ${e.message}`;
    return new RpcError(ErrorCodes.ProviderError, message, {
      kind: e.kind,
      provider: e.provider,
      model: e.model ?? null,
      status: e.status ?? null,
    });
  }
  if (error instanceof StoreWriteError) {
    // Not a bug in the daemon, but the message and data say so: the store is named as the cause.
    return new RpcError(ErrorCodes.InternalError, error.message, { kind: 'store_write_failed', sqliteCode: error.sqliteCode ?? null });
  }
  if (error instanceof StoreError && error.code === 'fenced') {
    // Another daemon runs the session: the message names it and what to do.
    return new RpcError(ErrorCodes.SessionBusy, error.message, { kind: 'session_fenced' });
  }
  return error;
}
