import { z } from 'zod';
import { AccessTokenError, type AccessToken } from './access-token.js';

/** One token request: a form POST to an OAuth token endpoint, or a GET to the metadata server. */
export interface AccessTokenRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>;
  /** Names the credential in errors, e.g. `the service-account key file /k.json (from GOOGLE_APPLICATION_CREDENTIALS)`. */
  credential: string;
  /** The clock, for `expires_in`. */
  now: () => number;
  signal?: AbortSignal;
}

/** The token response of RFC 6749 §5.1, which the metadata server shares; an error is §5.2. */
const tokenResponseSchema = z.looseObject({ access_token: z.string().min(1), expires_in: z.number().positive() });
const errorResponseSchema = z.looseObject({ error: z.string(), error_description: z.string().optional() });

/** Ask the endpoint for a token; every failure is an AccessTokenError naming the endpoint and the credential. */
export async function requestAccessToken(request: AccessTokenRequest): Promise<AccessToken> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: { ...(request.form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...request.headers },
      ...(request.form !== undefined ? { body: new URLSearchParams(request.form).toString() } : {}),
      ...(request.signal !== undefined ? { signal: request.signal } : {}),
    });
  } catch (error) {
    if (request.signal?.aborted === true) throw error;
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.message : String(error);
    throw new AccessTokenError(`could not reach ${request.url} for an access token with ${request.credential} (${detail})`, true);
  }
  const text = await response.text();
  const json = safeJson(text);
  if (!response.ok) {
    const oauth = errorResponseSchema.safeParse(json);
    const detail = oauth.success ? `${oauth.data.error}${oauth.data.error_description !== undefined ? `: ${oauth.data.error_description}` : ''}` : text.trim().slice(0, 200) || '(empty body)';
    const retryable = response.status >= 500 || response.status === 429;
    const fix = retryable ? '' : '; renew the credential (gcloud auth application-default login, or a new service-account key)';
    throw new AccessTokenError(`${request.url} refused an access token for ${request.credential}: HTTP ${response.status} ${detail}${fix}`, retryable);
  }
  const parsed = tokenResponseSchema.safeParse(json);
  if (!parsed.success) throw new AccessTokenError(`${request.url} answered without an access_token and expires_in for ${request.credential}`, false);
  return { token: parsed.data.access_token, expiresAtMs: request.now() + parsed.data.expires_in * 1000 };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
