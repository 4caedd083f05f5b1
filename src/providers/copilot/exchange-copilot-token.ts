import { z } from 'zod';
import { loadUndici } from '../http/load-undici.js';
import { networkError } from '../http/network-error.js';
import { parseRetryAfter } from '../http/parse-retry-after.js';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { ProviderError } from '../provider-error.js';
import { COPILOT_CLIENT_HEADERS, githubApiUrl } from './copilot-endpoints.js';

/** A Copilot API token and when to replace it (epoch milliseconds). */
export interface CopilotApiToken {
  token: string;
  /** Where chat and models are served for this seat (`endpoints.api`), when the answer names it. */
  apiUrl: string | undefined;
  expiresAt: number;
  /** When to fetch the next one: `refresh_in` after the fetch, and never later than a minute before expiry. */
  refreshAt: number;
}

/** The answer of `copilot_internal/v2/token` (sources in copilot-endpoints.ts); other fields are not read. */
const tokenAnswerSchema = z.looseObject({
  token: z.string().min(1),
  /** Unix seconds. */
  expires_at: z.number(),
  /** Seconds after which the clients fetch a new token. */
  refresh_in: z.number().optional(),
  endpoints: z.looseObject({ api: z.string().optional() }).optional(),
});

const timeoutMs = 30_000;

/**
 * Exchange the stored GitHub OAuth token for a Copilot API token. Failures are
 * ProviderErrors of one line: 401/403 mean the login is no longer valid or the account has
 * no Copilot seat (not retried); 429 and 5xx are retryable, with GitHub's retry-after.
 */
export async function exchangeCopilotToken(options: {
  provider: string;
  model: string;
  githubUrl: string;
  githubToken: string;
  signal: AbortSignal;
  now?: number;
}): Promise<CopilotApiToken> {
  const { provider, model, signal } = options;
  const url = `${githubApiUrl(options.githubUrl)}/copilot_internal/v2/token`;
  const { request } = await loadUndici();
  let status: number;
  let text: string;
  let headers: Headers;
  try {
    const response = await request(url, {
      headers: { accept: 'application/json', authorization: `token ${options.githubToken}`, ...COPILOT_CLIENT_HEADERS },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = response.statusCode;
    text = await response.body.text();
    headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
  } catch (error) {
    throw networkError(error, { provider, model, url, signal, connectMs: timeoutMs, firstByteMs: timeoutMs });
  }
  if (status === 401 || status === 403) {
    throw new ProviderError({
      provider,
      model,
      status,
      kind: 'auth',
      message: `${provider}: GitHub refused the Copilot token (HTTP ${status}): the stored login is not valid or the account has no Copilot seat; run \`agentd login copilot\` again`,
    });
  }
  if (status < 200 || status > 299) {
    const retryAfterMs = parseRetryAfter(headers);
    const detail = text.trim().split('\n')[0]!.slice(0, 200) || '(empty body)';
    throw new ProviderError({
      provider,
      model,
      status,
      kind: kindFromHttpStatus(status),
      message: `${provider}: the Copilot token exchange at ${url} answered HTTP ${status}: ${detail.split(options.githubToken).join('[redacted]')}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  const parsed = tokenAnswerSchema.safeParse(safeJson(text));
  if (!parsed.success) {
    throw new ProviderError({ provider, model, kind: 'server', message: `${provider}: the Copilot token exchange at ${url} answered without a token` });
  }
  const now = options.now ?? Date.now();
  const expiresAt = parsed.data.expires_at * 1000;
  const latest = expiresAt - 60_000;
  const refreshAt = Math.min(parsed.data.refresh_in !== undefined ? now + parsed.data.refresh_in * 1000 : latest, latest);
  return { token: parsed.data.token, apiUrl: parsed.data.endpoints?.api, expiresAt, refreshAt };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
