import { z } from 'zod';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { parseRetryAfter } from '../http/parse-retry-after.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import type { AnthropicErrorObject } from './anthropic-messages-types.js';

/** Who failed, for the ProviderError fields. */
export interface AnthropicMessagesErrorContext {
  provider: string;
  model: string;
}

/**
 * Error `type` → kind, from https://docs.anthropic.com/en/api/errors:
 * 400 invalid_request_error, 401 authentication_error, 402 billing_error,
 * 403 permission_error, 404 not_found_error, 413 request_too_large,
 * 429 rate_limit_error, 500 api_error, 504 timeout_error, 529 overloaded_error.
 */
const KIND_BY_TYPE: Record<string, ProviderErrorKind> = {
  invalid_request_error: 'bad_request',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'quota',
  not_found_error: 'not_found',
  // The request body is over the size limit (32 MB, mostly images): retrying the same
  // request never helps, shrinking the conversation does, exactly as with a token overflow.
  request_too_large: 'context_overflow',
  rate_limit_error: 'rate_limit',
  api_error: 'server',
  timeout_error: 'timeout',
  overloaded_error: 'overloaded',
};

/**
 * The texts Anthropic uses when the prompt does not fit the context window, e.g.
 * "prompt is too long: 208310 tokens > 200000 maximum" and "input length and `max_tokens`
 * exceed context limit: 197000 + 8192 > 200000".
 */
const CONTEXT_OVERFLOW = /prompt is too long|exceeds? (the )?context (limit|window)|input is too long/i;

/** A 400 that means the account has no credit left, not that the request was wrong. */
const OUT_OF_CREDIT = /credit balance is too low/i;

/** Kind of an Anthropic failure from its error type, message and HTTP status. */
export function anthropicMessagesErrorKind(type: string | undefined, message: string, status: number | undefined): ProviderErrorKind {
  if (CONTEXT_OVERFLOW.test(message)) return 'context_overflow';
  if (OUT_OF_CREDIT.test(message)) return 'quota';
  const byType = type !== undefined ? KIND_BY_TYPE[type] : undefined;
  if (byType !== undefined) return byType;
  return kindFromStatus(status);
}

/** Anthropic answers 413 request_too_large for a prompt that does not fit: shrinking it is the fix. */
function kindFromStatus(status: number | undefined): ProviderErrorKind {
  return status === 413 ? 'context_overflow' : kindFromHttpStatus(status);
}

/** Classify a non-2xx response: the body is `{type:'error', error:{type, message}}` when it came from Anthropic. */
export function classifyAnthropicMessagesError(
  context: AnthropicMessagesErrorContext,
  status: number,
  bodyText: string,
  headers: Headers,
): ProviderError {
  const error = readErrorObject(bodyText);
  const vendorMessage = error?.message ?? (bodyText.trim().slice(0, 500) || '(empty body)');
  const typeLabel = error?.type !== undefined ? ` ${error.type}` : '';
  return new ProviderError({
    kind: anthropicMessagesErrorKind(error?.type, vendorMessage, status),
    message: `${context.provider} (anthropic-messages) HTTP ${status}${typeLabel}: ${vendorMessage}`,
    provider: context.provider,
    model: context.model,
    status,
    retryAfterMs: parseRetryAfter(headers),
  });
}

/** An `event: error` that arrives inside a 200 stream (e.g. `overloaded_error` after some text). */
export function anthropicMessagesStreamError(
  context: AnthropicMessagesErrorContext,
  error: AnthropicErrorObject | undefined,
  midStream: boolean,
): ProviderError {
  const vendorMessage = error?.message ?? 'the stream reported an error without a message';
  const typeLabel = error?.type !== undefined ? ` ${error.type}` : '';
  return new ProviderError({
    kind: anthropicMessagesErrorKind(error?.type, vendorMessage, undefined),
    message: `${context.provider} (anthropic-messages) stream error${typeLabel}: ${vendorMessage}`,
    provider: context.provider,
    model: context.model,
    midStream,
  });
}

/** `{ error: { type, message } }`; a field of the wrong type is left out, not fatal. */
const errorBodySchema = z.looseObject({
  error: z.looseObject({ type: z.string().optional().catch(undefined), message: z.string().optional().catch(undefined) }),
});

function readErrorObject(bodyText: string): AnthropicErrorObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const checked = errorBodySchema.safeParse(parsed);
  if (!checked.success) return undefined;
  const { type, message } = checked.data.error;
  return { type, message };
}
