import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';
import { postStream, type HttpTimeouts } from './post-stream.js';
import { createResponseSizeLimit, DEFAULT_MAX_RESPONSE_BYTES } from './response-size-limit.js';
import { streamThroughParser, type StreamLimits, type StreamParser } from './stream-through-parser.js';
import { toProviderError } from './to-provider-error.js';

/** One streamed request of an HTTP protocol: everything that differs between protocols. */
export interface HttpModelRequest {
  /** Wire protocol id, named in error messages. */
  protocol: string;
  provider: string;
  /** The model id actually requested. */
  model: string;
  url: string;
  headers: Record<string, string>;
  /** Builds the JSON body; anything it throws is a `bad_request` and nothing is sent. */
  body: () => unknown;
  /** The protocol's stream parser for this response. */
  parser: StreamParser;
  /** An HTTP error answer as a ProviderError (the protocol's error mapper). */
  classifyError: (status: number, bodyText: string, headers: Headers) => ProviderError;
  /** Secrets that must never appear in an error message (the API key). */
  secrets: ReadonlyArray<string | undefined>;
  timeouts?: HttpTimeouts;
  /** Most content bytes one response may bring (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  signal: AbortSignal;
  /** Called once the request is written, while the answer is awaited (see PostStreamOptions). */
  afterSend?: () => void;
}

/**
 * The one implementation behind every HTTP model class, which is left as configuration
 * (URL, headers, body builder, stream parser, error mapper): build the body, POST it,
 * stream the answer through the parser, and turn every failure into the parser's
 * closing error, so all protocols fail the same way. It never throws.
 */
export async function* streamHttpModel(request: HttpModelRequest): AsyncGenerator<StreamEvent> {
  const { protocol, provider, model, parser, signal } = request;
  let body: unknown;
  try {
    body = request.body();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    yield* parser.fail(new ProviderError({ provider, model, kind: 'bad_request', message: `${provider} (${protocol}): ${detail}` }));
    return;
  }
  // Aborted when the response is cut off at a size limit: the socket goes, and the endless body with it.
  const cut = new AbortController();
  const limits: StreamLimits = {
    size: createResponseSizeLimit(request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, { provider, model }),
    abort: () => cut.abort(),
  };
  yield* streamThroughParser(
    () =>
      postStream({
        url: request.url,
        headers: request.headers,
        body,
        signal: AbortSignal.any([signal, cut.signal]),
        provider,
        model,
        ...(request.timeouts !== undefined ? { timeouts: request.timeouts } : {}),
        classifyError: request.classifyError,
        redact: request.secrets.filter((secret): secret is string => secret !== undefined && secret !== ''),
        ...(request.afterSend !== undefined ? { afterSend: request.afterSend } : {}),
      }),
    parser,
    (error) => toProviderError(error, { provider, model, protocol, signal }),
    limits,
  );
}
