import { z } from 'zod';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { parseRetryAfter } from '../http/parse-retry-after.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';

/** Who failed, for the ProviderError fields. */
export interface CohereErrorContext {
  provider: string;
  model: string;
}

/**
 * How Cohere says the prompt does not fit: "too many tokens: total number of tokens in
 * the prompt cannot exceed …", "too many tokens: size limit exceeded by … tokens" (its
 * 400 examples, https://docs.cohere.com/reference/errors). "too many tokens: max tokens
 * must be less than or equal to …" is about max_tokens, a plain bad request.
 */
const CONTEXT_OVERFLOW = /too many tokens: (total number of tokens in the prompt|size limit exceeded|minimal context|multi-hop prompt is too long)/i;

/**
 * HTTP status → kind, from https://docs.cohere.com/reference/errors and the status codes
 * the official SDKs name (cohere-python `v2/raw_client.py`): 400 bad request (or a
 * context overflow), 401 and 498 (invalid token) auth, 402 billing limit (quota), 403
 * auth, 404 not found, 422 bad request, 429 rate limit (retried with backoff), 499
 * "request cancelled" on Cohere's side and 5xx server errors (retried).
 */
function kindFor(status: number, message: string): ProviderErrorKind {
  if (status === 400 && CONTEXT_OVERFLOW.test(message)) return 'context_overflow';
  if (status === 498) return 'auth';
  if (status === 402) return 'quota';
  if (status === 499) return 'server';
  return kindFromHttpStatus(status);
}

/** A non-2xx answer: Cohere's body is `{"id": "…", "message": "…"}`. */
export function classifyCohereError(context: CohereErrorContext, status: number, bodyText: string, headers: Headers): ProviderError {
  const message = readMessage(bodyText);
  const kind = kindFor(status, message);
  return new ProviderError({
    ...context,
    kind,
    status,
    message: `${context.provider} (cohere) HTTP ${status}: ${message}`,
    retryAfterMs: kind === 'rate_limit' || kind === 'overloaded' || kind === 'server' ? parseRetryAfter(headers) : undefined,
  });
}

/**
 * A stream that ends in `message-end` with `finish_reason` ERROR (with `delta.error`,
 * "An error message if an error occurred during the generation") or TIMEOUT ("exceeded
 * the allowed time limit"). Both are worth another attempt when nothing was shown yet.
 */
export function cohereGenerationError(context: CohereErrorContext, finishReason: 'ERROR' | 'TIMEOUT', error: string | undefined): ProviderError {
  const what = error !== undefined && error !== '' ? error : finishReason === 'TIMEOUT' ? 'the generation exceeded the allowed time limit' : 'no message';
  return new ProviderError({
    ...context,
    kind: finishReason === 'TIMEOUT' ? 'timeout' : 'server',
    message: `${context.provider} (cohere): the generation failed (finish_reason ${finishReason}): ${what}`,
  });
}

const errorBodySchema = z.looseObject({ message: z.string().optional().catch(undefined) });

function readMessage(bodyText: string): string {
  const trimmed = bodyText.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return trimmed === '' ? '(empty body)' : clip(trimmed);
  }
  const checked = errorBodySchema.safeParse(parsed);
  const message = checked.success ? checked.data.message : undefined;
  return message !== undefined && message !== '' ? clip(message) : clip(trimmed);
}

function clip(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}
