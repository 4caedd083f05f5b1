import type { ProviderErrorKind } from '../provider-error.js';

/**
 * What an HTTP status says about a failure, before a vendor's error body refines it
 * (quota, context overflow). The retryable kinds match withResilience's list: 408, 409,
 * 429, 5xx and 529 are worth another attempt; 400, 401, 403, 404 and 413 are not.
 */
export function kindFromHttpStatus(status: number | undefined): ProviderErrorKind {
  if (status === undefined) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 409) return 'server';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  return 'bad_request';
}
