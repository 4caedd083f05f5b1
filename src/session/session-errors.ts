import type { ProviderError } from '../providers/provider-error.js';

// The session layer's errors, in a file of their own so that the server can tell them
// apart (session-error-to-rpc) without loading the session and the loop behind them.

/** Thrown for an unknown session id. */
export class SessionNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} not found; list sessions with session/list`);
  }
}

/** Thrown when a prompt arrives for a running session without a delivery mode. */
export class SessionBusyError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} is busy`);
  }
}

/** Thrown when a message would join a run's turn that has its own permission mode (a scheduled run). */
export class RunTurnBusyError extends SessionBusyError {
  constructor(
    sessionId: string,
    readonly runPermissionMode: string,
  ) {
    super(sessionId);
    this.message =
      `session ${sessionId} is running a scheduled run in permission mode "${runPermissionMode}", which applies to that run only; ` +
      'a message cannot join it (it would run in that mode). Send it once the run has ended, or cancel the run first';
  }
}

/** The turn ended because the provider failed; the prompt is answered with this error. */
export class TurnFailedError extends Error {
  constructor(readonly providerError: ProviderError) {
    super(providerError.message);
  }
}

/** A mode or option value the session does not offer. */
export class UnknownChoiceError extends Error {}

/** Thrown for prompt content the daemon cannot pass to a model. */
export class PromptContentError extends Error {}
