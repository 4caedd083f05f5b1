/** What went wrong, in terms the loop can act on. */
export type ProviderErrorKind =
  | 'auth'
  | 'bad_request'
  | 'not_found'
  | 'rate_limit'
  | 'quota'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'timeout'
  | 'context_overflow'
  /** The response went past providers.<id>.maxResponseBytes and was cut off; not retried. */
  | 'response_too_large'
  | 'aborted';

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  message: string;
  provider: string;
  model?: string;
  status?: number;
  /** Delay the vendor asked for before a retry, in milliseconds. */
  retryAfterMs?: number;
  /** True when the failure came after the first semantic event of a stream. */
  midStream?: boolean;
  /** The transport's error code for a `network` failure (`ECONNREFUSED`, `ENOTFOUND`, …). */
  code?: string;
}

/** A typed provider failure. Messages never hold API keys (see redactSecrets). */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly provider: string;
  readonly model: string | undefined;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly midStream: boolean;
  readonly code: string | undefined;

  constructor(init: ProviderErrorInit) {
    super(init.message);
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.provider = init.provider;
    this.model = init.model;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.midStream = init.midStream ?? false;
    this.code = init.code;
  }

  /** Worth another attempt: overload, rate limit, 5xx, network, stall. */
  get retryable(): boolean {
    return ['rate_limit', 'overloaded', 'server', 'network', 'timeout'].includes(this.kind);
  }
}
