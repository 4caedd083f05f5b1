import type { AccessToken } from './access-token.js';

/**
 * Refresh this long before expiry, as google-auth-library's `eagerRefreshThresholdMillis`
 * (5 minutes): a request started with the token must not see it expire mid-stream.
 */
export const DEFAULT_REFRESH_MARGIN_MS = 5 * 60_000;

export interface CachedAccessTokenOptions {
  /** Fetch a fresh token (one of the credential flows). */
  fetch: (signal?: AbortSignal) => Promise<AccessToken>;
  now: () => number;
  refreshMarginMs?: number;
}

/**
 * A token kept until `refreshMarginMs` before it expires, then fetched again. Concurrent
 * callers share one in-flight fetch; a failed fetch is not cached, so the next call retries.
 * The fetch runs without the caller's signal: it is shared, and one caller's abort must not
 * fail the others.
 */
export class CachedAccessToken {
  private readonly options: CachedAccessTokenOptions;
  private current: AccessToken | undefined;
  private inFlight: Promise<AccessToken> | undefined;

  constructor(options: CachedAccessTokenOptions) {
    this.options = options;
  }

  async get(signal?: AbortSignal): Promise<string> {
    const margin = this.options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    if (this.current !== undefined && this.options.now() < this.current.expiresAtMs - margin) return this.current.token;
    this.inFlight ??= this.options.fetch().then(
      (token) => {
        this.current = token;
        this.inFlight = undefined;
        return token;
      },
      (error: unknown) => {
        this.inFlight = undefined;
        throw error;
      },
    );
    const token = await raceAbort(this.inFlight, signal);
    return token.token;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
