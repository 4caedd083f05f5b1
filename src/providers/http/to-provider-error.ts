import { ProviderError } from '../provider-error.js';

/**
 * Any failure around a streamed request as a ProviderError: ProviderErrors (postStream
 * classifies HTTP answers) pass through, an abort is `aborted`, a request the model
 * class could not build is `bad_request`, anything else `network`.
 */
export function toProviderError(
  error: unknown,
  context: { provider: string; model: string; protocol: string; signal: AbortSignal; isRequestError?: (error: unknown) => boolean },
): ProviderError {
  if (error instanceof ProviderError) return error;
  const { provider, model } = context;
  if (context.signal.aborted) return new ProviderError({ provider, model, kind: 'aborted', message: `${provider}: the request was aborted` });
  const kind = context.isRequestError?.(error) ? 'bad_request' : 'network';
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError({ provider, model, kind, message: `${provider} (${context.protocol}): ${detail}` });
}
