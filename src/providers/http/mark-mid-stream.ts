import { ProviderError } from '../provider-error.js';

/** The same error, flagged as coming after the first semantic event (ProviderError is immutable). */
export function markMidStream(error: ProviderError): ProviderError {
  if (error.midStream) return error;
  return new ProviderError({
    kind: error.kind,
    message: error.message,
    provider: error.provider,
    model: error.model,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    midStream: true,
    code: error.code,
  });
}
