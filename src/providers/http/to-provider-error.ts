import { ProviderError } from '../provider-error.js';

/**
 * Any failure around a streamed request as a ProviderError: ProviderErrors (postStream
 * classifies HTTP answers) pass through, an abort is `aborted`, anything else `network`
 * (a request that could not be built never gets here: streamHttpModel answers it).
 */
export function toProviderError(
  error: unknown,
  context: { provider: string; model: string; protocol: string; signal: AbortSignal },
): ProviderError {
  if (error instanceof ProviderError) return error;
  const { provider, model } = context;
  if (context.signal.aborted) return new ProviderError({ provider, model, kind: 'aborted', message: `${provider}: the request was aborted` });
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError({ provider, model, kind: 'network', message: `${provider} (${context.protocol}): ${detail}` });
}
