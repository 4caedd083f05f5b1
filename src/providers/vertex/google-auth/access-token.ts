/** An OAuth 2.0 access token and when it stops working. */
export interface AccessToken {
  /** The bearer token. */
  token: string;
  /** Epoch milliseconds after which Google rejects it. */
  expiresAtMs: number;
}

/** A token failure that names the credential and the fix; `retryable` when trying again later may help (network, 5xx). */
export class AccessTokenError extends Error {
  override readonly name = 'AccessTokenError';
  readonly retryable: boolean;

  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}
