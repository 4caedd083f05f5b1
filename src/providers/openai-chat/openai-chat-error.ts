import { z } from 'zod';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import { parseRetryAfter } from '../http/parse-retry-after.js';
import type { ChatErrorBody } from './openai-chat-api-types.js';

/** Who failed, for the error. */
export interface OpenAIChatErrorContext {
  provider: string;
  model: string;
}

/**
 * How servers say the prompt did not fit: OpenAI `context_length_exceeded` and "maximum
 * context length" (https://platform.openai.com/docs/guides/error-codes), vLLM "maximum
 * context length … However, you requested", llama.cpp "exceeds the available context
 * size", Groq/Together "too many tokens", Mistral "too large for model", DeepSeek and
 * others "prompt is too long" / "reduce the length of the messages".
 */
const contextOverflowPatterns = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /context (window|size|length) (exceeded|is exceeded)/i,
  /exceeds? (the )?(available |model'?s? )?(context|max(imum)? context)/i,
  /too many tokens/i,
  /prompt is too long/i,
  /input is too long/i,
  /reduce the length of the (messages|prompt|input)/i,
  /too large for model with \d+ maximum context length/i,
  /requested \d+ tokens.*(context|maximum)/i,
];

/** True when a vendor error message says the request exceeded the context window. */
export function isContextOverflowMessage(text: string): boolean {
  return contextOverflowPatterns.some((pattern) => pattern.test(text));
}

/**
 * Classify a non-2xx Chat Completions answer (status table from
 * https://platform.openai.com/docs/guides/error-codes#api-errors): 401/403 auth,
 * 404 not_found, 400/422 bad_request or context_overflow, 413 bad_request, 429
 * rate_limit or quota (`insufficient_quota`), 402 quota (OpenRouter: out of credits),
 * 408 timeout, 503/529 overloaded, 409 and other 5xx server.
 */
export function classifyOpenAIChatError(
  context: OpenAIChatErrorContext,
  status: number,
  bodyText: string,
  headers: Headers,
): ProviderError {
  const body = parseErrorBody(bodyText);
  const kind = kindForStatus(status, body);
  return new ProviderError({
    ...context,
    kind,
    status,
    message: `${context.provider} ${status}: ${body.message}`,
    retryAfterMs: kind === 'rate_limit' || kind === 'overloaded' || kind === 'server' ? parseRetryAfter(headers) : undefined,
  });
}

/**
 * Classify an error delivered inside the stream (`data: {"error": {...}}` or an SSE
 * `event: error`), where there is no HTTP status: a numeric `code` in the HTTP range
 * (OpenRouter, vLLM) is treated as one, otherwise the type and code strings decide.
 */
export function classifyOpenAIChatStreamError(
  context: OpenAIChatErrorContext,
  error: ChatErrorBody | string,
  midStream: boolean,
): ProviderError {
  const body = typeof error === 'string' ? { message: error, tag: '' } : describeError(error);
  const status = typeof error === 'object' && typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const kind = status !== undefined ? kindForStatus(status, body) : kindForTag(body);
  return new ProviderError({
    ...context,
    kind,
    status,
    midStream,
    message: `${context.provider}: error in stream: ${body.message}`,
  });
}

interface DescribedError {
  /** Human-readable message from the body, or the body itself. */
  message: string;
  /** `type` and `code` strings joined, lower-cased, for matching. */
  tag: string;
}

function kindForStatus(status: number, body: DescribedError): ProviderErrorKind {
  if (status === 402) return 'quota';
  if (status < 400) return 'server';
  const base = kindFromHttpStatus(status);
  if (base === 'rate_limit') return isQuota(body) ? 'quota' : 'rate_limit';
  if (base === 'bad_request' && status !== 413) return isContextOverflowMessage(`${body.tag} ${body.message}`) ? 'context_overflow' : 'bad_request';
  return base;
}

function kindForTag(body: DescribedError): ProviderErrorKind {
  const text = `${body.tag} ${body.message}`;
  if (isContextOverflowMessage(text)) return 'context_overflow';
  if (isQuota(body)) return 'quota';
  if (/rate[_ ]limit/i.test(body.tag)) return 'rate_limit';
  if (/overload|unavailable|capacity/i.test(text)) return 'overloaded';
  if (/auth|permission|api[_ ]key/i.test(body.tag)) return 'auth';
  if (/invalid_request|bad_request/i.test(body.tag)) return 'bad_request';
  if (/timeout/i.test(body.tag)) return 'timeout';
  return 'server';
}

function isQuota(body: DescribedError): boolean {
  return /insufficient_quota/i.test(body.tag) || /exceeded your current quota/i.test(body.message);
}

/** Pull a message out of the shapes servers use: `{error:{message,type,code}}`, `{error:"…"}`, `{message}`, `{detail}`. */
function parseErrorBody(text: string): DescribedError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { message: text.trim() === '' ? '(empty response body)' : truncate(text.trim()), tag: '' };
  }
  const checked = errorBodySchema.safeParse(json);
  if (!checked.success) return { message: truncate(text.trim()), tag: '' };
  const record = checked.data;
  if (typeof record.error === 'string') return { message: truncate(record.error), tag: '' };
  if (record.error !== undefined) return describeError(record.error);
  return describeError({
    message: record.message ?? record.detail ?? truncate(text.trim()),
    type: record.type ?? null,
    code: record.code ?? null,
  });
}

/** A field of the wrong type is left out, not fatal: the rest still describes the error. */
const optionalText = z.string().optional().catch(undefined);
const optionalCode = z.union([z.string(), z.number()]).optional().catch(undefined);
const errorObject = z.looseObject({ message: optionalText, type: optionalText, code: optionalCode, param: optionalText });

/** The shapes servers use: `{error:{message,type,code}}`, `{error:"…"}`, `{message}`, `{detail}`. */
const errorBodySchema = z.looseObject({
  error: z.union([z.string(), errorObject]).optional().catch(undefined),
  message: optionalText,
  detail: optionalText,
  type: optionalText,
  code: optionalCode,
});

function describeError(error: ChatErrorBody): DescribedError {
  const tag = [error.type, error.code].filter((v) => typeof v === 'string').join(' ').toLowerCase();
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : tag !== '' ? tag : JSON.stringify(error);
  return { message: truncate(message), tag };
}

function truncate(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}
