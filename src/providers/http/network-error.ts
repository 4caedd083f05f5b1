import { ProviderError } from '../provider-error.js';

/** Where a transport failure happened, for its message. */
export interface NetworkErrorContext {
  provider: string;
  model: string;
  /** The URL called; its query string is left out of messages. */
  url: string;
  signal: AbortSignal;
  /** Timeouts in force, to name the one that ran out. */
  connectMs: number;
  firstByteMs: number;
}

/**
 * Turn whatever the HTTP client or the socket threw into a ProviderError: `aborted` when
 * the caller's signal fired (checked first: aborts come in several shapes), `timeout` for
 * the connect and first-byte limits (httpPost's, or undici's where undici is used),
 * `network` for everything else.
 * A ProviderError (e.g. the idle watchdog's) passes through unchanged.
 */
export function networkError(error: unknown, context: NetworkErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const base = { provider: context.provider, model: context.model };
  const where = stripQuery(context.url);
  if (context.signal.aborted) {
    return new ProviderError({ ...base, kind: 'aborted', message: `${context.provider}: request to ${where} was aborted` });
  }
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'CONNECT_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ProviderError({
      ...base,
      kind: 'timeout',
      message: `${context.provider}: could not connect to ${where} within ${context.connectMs} ms (raise timeouts.connectMs if the server is slow to accept)`,
    });
  }
  if (code === 'HEADERS_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new ProviderError({
      ...base,
      kind: 'timeout',
      message: `${context.provider}: no response from ${where} within ${context.firstByteMs} ms (raise timeouts.firstByteMs for slow local models)`,
    });
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new ProviderError({ ...base, kind: 'timeout', message: `${context.provider}: response body from ${where} stalled: ${detail}` });
  }
  const label = code === undefined ? '' : ` (${code})`;
  return new ProviderError({ ...base, kind: 'network', ...(code !== undefined ? { code } : {}), message: `${context.provider}: network error${label} calling ${where}: ${detail}` });
}

/** The error code of a Node/undici error, looking inside AggregateError and `cause`. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const withCode = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof withCode.code === 'string') return withCode.code;
  if (Array.isArray(withCode.errors) && withCode.errors.length > 0) return errorCode(withCode.errors[0]);
  if (withCode.cause !== undefined) return errorCode(withCode.cause);
  return undefined;
}

function stripQuery(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? url : url.slice(0, index);
}
