import { z } from 'zod';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { parseRetryAfter } from '../http/parse-retry-after.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import type { ResponsesErrorObject } from './openai-responses-api-types.js';

/** Who failed, for the error message and the ProviderError fields. */
export interface OpenAIResponsesErrorContext {
  provider: string;
  model: string;
}

/**
 * OpenAI reports an overflowing prompt as code `context_length_exceeded` with messages like
 * "Your input exceeds the context window of this model" (Responses) or "This model's maximum
 * context length is 128000 tokens" (older models, compatible servers); some gateways drop the
 * code and keep only the text, so the text is checked too.
 */
const CONTEXT_OVERFLOW_TEXT =
  /context[_ ]length|context window|maximum context|prompt is too long|too many (input )?tokens/i;

/**
 * Error codes from https://platform.openai.com/docs/guides/error-codes and the `code` enum of
 * the Responses `ResponseError` object (https://platform.openai.com/docs/api-reference/responses/object).
 */
const KIND_BY_CODE: Record<string, ProviderErrorKind> = {
  insufficient_quota: 'quota',
  rate_limit_exceeded: 'rate_limit',
  context_length_exceeded: 'context_overflow',
  server_error: 'server',
  server_is_overloaded: 'overloaded',
  overloaded: 'overloaded',
  invalid_api_key: 'auth',
  model_not_found: 'not_found',
  vector_store_timeout: 'timeout',
  invalid_prompt: 'bad_request',
};

/** Kind of an error object by its code, its type, then its text; undefined when none says. */
function kindFromErrorObject(error: ResponsesErrorObject): ProviderErrorKind | undefined {
  for (const key of [error.code, error.type]) {
    if (typeof key === 'string' && KIND_BY_CODE[key] !== undefined) return KIND_BY_CODE[key];
  }
  if (typeof error.message === 'string' && CONTEXT_OVERFLOW_TEXT.test(error.message)) return 'context_overflow';
  if (typeof error.code === 'string' && /^(invalid_|image_|unsupported_|empty_|failed_to_download)/.test(error.code)) {
    return 'bad_request';
  }
  return undefined;
}

/** Masks anything shaped like an OpenAI key that a vendor or proxy might echo back. */
function redactKeys(text: string): string {
  return text.replace(/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-***');
}

/** Reads `{ error: { message, type, code, param } }`; plain-text bodies are kept as the message. */
function parseErrorBody(bodyText: string): ResponsesErrorObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    // Not JSON: an HTML page from a proxy, or plain text. Use it as it is below.
  }
  const checked = errorBodySchema.safeParse(parsed);
  if (checked.success) {
    const { error } = checked.data;
    return typeof error === 'string' ? { message: error } : error;
  }
  return { message: bodyText.trim().slice(0, 500) };
}

/** A field of the wrong type is left out, not fatal: the rest still classifies the error. */
const field = z.string().nullish().catch(undefined);

/** `{ error: { message, type, code, param } }`, or `{ error: "…" }` from some proxies. */
const errorBodySchema = z.looseObject({
  error: z.union([z.string(), z.looseObject({ type: field, code: field, message: field, param: field })]),
});

/**
 * Classifies a non-2xx answer of POST /responses. Status first, refined by the body's code,
 * following https://platform.openai.com/docs/guides/error-codes/api-errors: 401/403 auth,
 * 404 not found, 429 rate limit unless the code is `insufficient_quota`, 400 with a context
 * overflow code or text, 503 overloaded, other 5xx server errors.
 */
export function classifyOpenAIResponsesHttpError(
  status: number,
  bodyText: string,
  headers: Headers,
  context: OpenAIResponsesErrorContext,
): ProviderError {
  const error = parseErrorBody(bodyText);
  const byBody = kindFromErrorObject(error);
  const base = kindFromHttpStatus(status);
  let kind: ProviderErrorKind = base;
  if (base === 'rate_limit' && byBody === 'quota') kind = 'quota';
  else if (base === 'server' && byBody === 'overloaded') kind = 'overloaded';
  else if (base === 'bad_request' && byBody === 'context_overflow') kind = 'context_overflow';
  const detail = error.message !== undefined && error.message !== null && error.message !== '' ? error.message : 'no error message';
  const code = error.code ?? error.type;
  return new ProviderError({
    kind,
    message: redactKeys(`${context.provider}/${context.model}: HTTP ${status}${code ? ` ${code}` : ''}: ${detail}`),
    provider: context.provider,
    model: context.model,
    status,
    retryAfterMs: kind === 'rate_limit' || kind === 'overloaded' ? parseRetryAfter(headers) : undefined,
  });
}

/**
 * Classifies an error reported inside the stream: the `error` event (either shape) or the
 * `error` of `response.failed`. Unknown codes count as server errors, since the request
 * itself was accepted.
 */
export function openAIResponsesStreamError(
  error: ResponsesErrorObject,
  context: OpenAIResponsesErrorContext,
  midStream: boolean,
): ProviderError {
  const kind = kindFromErrorObject(error) ?? 'server';
  const detail = typeof error.message === 'string' && error.message !== '' ? error.message : 'the response failed without a message';
  const code = error.code ?? error.type;
  return new ProviderError({
    kind,
    message: redactKeys(`${context.provider}/${context.model}: ${code ? `${code}: ` : ''}${detail}`),
    provider: context.provider,
    model: context.model,
    midStream,
  });
}
