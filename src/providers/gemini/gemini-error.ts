import { z } from 'zod';
import { kindFromHttpStatus } from '../http/kind-from-http-status.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import type { GeminiErrorObject } from './gemini-types.js';

/** Who failed, for the ProviderError fields. */
export interface GeminiErrorContext {
  provider: string;
  model: string;
}

/**
 * google.rpc status → kind, from https://ai.google.dev/gemini-api/docs/troubleshooting
 * (400 INVALID_ARGUMENT / FAILED_PRECONDITION, 403 PERMISSION_DENIED, 404 NOT_FOUND,
 * 429 RESOURCE_EXHAUSTED, 500 INTERNAL, 503 UNAVAILABLE, 504 DEADLINE_EXCEEDED).
 */
const KIND_BY_STATUS: Record<string, ProviderErrorKind> = {
  INVALID_ARGUMENT: 'bad_request',
  FAILED_PRECONDITION: 'bad_request',
  UNAUTHENTICATED: 'auth',
  PERMISSION_DENIED: 'auth',
  NOT_FOUND: 'not_found',
  RESOURCE_EXHAUSTED: 'rate_limit',
  INTERNAL: 'server',
  UNAVAILABLE: 'overloaded',
  DEADLINE_EXCEEDED: 'timeout',
};

/** "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)." */
const CONTEXT_OVERFLOW = /exceeds the maximum number of tokens|input token count .* exceeds/i;

/** A key Google does not accept comes back as a 400 INVALID_ARGUMENT with reason API_KEY_INVALID. */
const INVALID_KEY = /API_KEY_INVALID|API key not valid|API key expired/i;

/**
 * RESOURCE_EXHAUSTED is a per-minute rate limit unless the quota that ran out is a daily
 * one (QuotaFailure `quotaId` like `GenerateRequestsPerDayPerProjectPerModel-FreeTier`) or
 * the tier has no quota for the model at all ("limit: 0"): waiting minutes will not help.
 */
const DAILY_QUOTA = /per ?day|limit: 0\b/i;

/** Kind of a Gemini failure from its error object and HTTP status. */
export function geminiErrorKind(error: GeminiErrorObject | undefined, httpStatus: number | undefined): ProviderErrorKind {
  const message = error?.message ?? '';
  const details = JSON.stringify(error?.details ?? []);
  if (INVALID_KEY.test(message) || INVALID_KEY.test(details)) return 'auth';
  if (CONTEXT_OVERFLOW.test(message)) return 'context_overflow';
  const byStatus = error?.status !== undefined ? KIND_BY_STATUS[error.status] : undefined;
  const kind = byStatus ?? kindFromHttpStatus(httpStatus ?? error?.code);
  if (kind === 'rate_limit' && (DAILY_QUOTA.test(message) || DAILY_QUOTA.test(details))) return 'quota';
  return kind;
}

/** Classify a non-2xx response: the body is `{error:{code, message, status, details}}` (sometimes wrapped in an array). */
export function classifyGeminiError(context: GeminiErrorContext, status: number, bodyText: string, _headers: Headers): ProviderError {
  const error = readErrorObject(bodyText);
  const vendorMessage = error?.message ?? (bodyText.trim().slice(0, 500) || '(empty body)');
  const statusLabel = error?.status !== undefined ? ` ${error.status}` : '';
  return new ProviderError({
    kind: geminiErrorKind(error, status),
    message: `${context.provider} (gemini) HTTP ${status}${statusLabel}: ${vendorMessage}`,
    provider: context.provider,
    model: context.model,
    status,
    retryAfterMs: retryDelayMs(error),
  });
}

/** An `error` object that arrives as a chunk inside a 200 stream. */
export function geminiStreamError(context: GeminiErrorContext, error: GeminiErrorObject, midStream: boolean): ProviderError {
  const statusLabel = error.status !== undefined ? ` ${error.status}` : '';
  return new ProviderError({
    kind: geminiErrorKind(error, error.code),
    message: `${context.provider} (gemini) stream error${statusLabel}: ${error.message ?? 'no message'}`,
    provider: context.provider,
    model: context.model,
    status: error.code,
    retryAfterMs: retryDelayMs(error),
    midStream,
  });
}

function readErrorObject(bodyText: string): GeminiErrorObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  // A streamed request may answer an error as a one-element array.
  const checked = errorBodySchema.safeParse(Array.isArray(parsed) ? parsed[0] : parsed);
  if (!checked.success) return undefined;
  const { code, message, status, details } = checked.data.error;
  return { code, message, status, details: details?.filter((detail) => detail !== undefined) };
}

/** google.rpc.Status in `{ error }`; a field of the wrong type is left out, not fatal. */
const errorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.number().optional().catch(undefined),
    message: z.string().optional().catch(undefined),
    status: z.string().optional().catch(undefined),
    details: z.array(z.record(z.string(), z.unknown()).optional().catch(undefined)).optional().catch(undefined),
  }),
});

/**
 * `google.rpc.RetryInfo.retryDelay` is a protobuf Duration in JSON form: seconds with an
 * `s` suffix, e.g. "17s" or "0.5s" (https://protobuf.dev/programming-guides/json/).
 */
function retryDelayMs(error: GeminiErrorObject | undefined): number | undefined {
  const retryInfo = error?.details?.find((detail) => detail['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
  const delay = retryInfo?.retryDelay;
  if (typeof delay !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
  return match?.[1] !== undefined ? Math.round(Number(match[1]) * 1000) : undefined;
}
