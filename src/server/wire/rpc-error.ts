import { ErrorCodes } from '../../../protocol/index.js';

/** A JSON-RPC error answer. Handlers throw these; anything else becomes InternalError. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static parseError(detail: string): RpcError {
    return new RpcError(ErrorCodes.ParseError, `parse error: ${detail}`);
  }
  static invalidRequest(detail: string): RpcError {
    return new RpcError(ErrorCodes.InvalidRequest, `invalid request: ${detail}`);
  }
  static methodNotFound(method: string, hint = ''): RpcError {
    return new RpcError(ErrorCodes.MethodNotFound, `method not found: ${method}${hint ? `; ${hint}` : ''}`);
  }
  static invalidParams(method: string, issues: string[]): RpcError {
    return new RpcError(ErrorCodes.InvalidParams, `invalid params for ${method}: ${issues.join('; ')}`, {
      issues,
    });
  }
  static internal(detail: string): RpcError {
    return new RpcError(ErrorCodes.InternalError, `internal error: ${detail}`);
  }
  static cancelled(what = 'request'): RpcError {
    return new RpcError(ErrorCodes.RequestCancelled, `${what} cancelled`);
  }
  static notFound(detail: string): RpcError {
    return new RpcError(ErrorCodes.ResourceNotFound, detail);
  }
  static sessionBusy(sessionId: string): RpcError {
    return new RpcError(
      ErrorCodes.SessionBusy,
      `session ${sessionId} is busy running a turn; wait for it, cancel it, or send the prompt with ` +
        `_meta.agentd.delivery set to "steer" or "followUp"`,
    );
  }
  static frameTooLarge(detail: string): RpcError {
    return new RpcError(ErrorCodes.FrameTooLarge, detail);
  }
  static unauthorized(detail: string): RpcError {
    return new RpcError(ErrorCodes.Unauthorized, detail);
  }
  static providerNotConfigured(detail: string): RpcError {
    return new RpcError(ErrorCodes.ProviderNotConfigured, detail);
  }
}
