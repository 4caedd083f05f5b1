import { errorCodeName } from '../../../protocol/error-codes.js';

/** An error answer from the peer: the JSON-RPC error object, as a throwable. */
export class AgentdClientError extends Error {
  constructor(
    /** JSON-RPC error code; see `ErrorCodes` in the protocol. */
    readonly code: number,
    message: string,
    /** The error's `data`, e.g. `{issues}` for InvalidParams. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AgentdClientError';
  }

  /** The code's name (e.g. `SessionBusy`), or undefined for codes agentd does not define. */
  get codeName(): string | undefined {
    return errorCodeName(this.code);
  }
}

/** The connection ended before the answer to a request arrived. */
export class AgentdConnectionClosedError extends Error {
  constructor(method: string) {
    super(`connection to agentd closed before the answer to ${method} arrived; reconnect and retry`);
    this.name = 'AgentdConnectionClosedError';
  }
}
