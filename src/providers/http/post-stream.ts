import { ProviderError } from '../provider-error.js';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { httpPost } from './http-post.js';
import { BodyReader } from './body-reader.js';
import { createIdleWatchdog } from './idle-watchdog.js';
import { networkError, type NetworkErrorContext } from './network-error.js';
import { parseRetryAfter } from './parse-retry-after.js';
import { releaseBody } from './release-body.js';
import { encodeRequestBody } from './request-body-json.js';

/** Transport timeouts for one streamed request, in milliseconds. */
export interface HttpTimeouts {
  /** TCP + TLS connect. Default 30 000. */
  connectMs?: number;
  /** From sending the request to receiving the response headers. Default 300 000: local servers may process a long prompt before answering. */
  firstByteMs?: number;
  /** Longest silence between body chunks before the stream counts as stalled. Default 90 000. */
  idleMs?: number;
}

export const defaultTimeouts: Required<HttpTimeouts> = { connectMs: 30_000, firstByteMs: 300_000, idleMs: 90_000 };

export interface PostStreamOptions {
  url: string;
  /** Request headers; `content-type: application/json` is added when absent. */
  headers: Record<string, string>;
  /** Sent as the bytes of JSON.stringify (encodeRequestBody: remembered items' bytes are reused). */
  body: unknown;
  /** Aborting tears the request down at once, in any state, surfacing kind `aborted`. */
  signal: AbortSignal;
  /** Provider and model ids, for error messages. */
  provider: string;
  model: string;
  timeouts?: HttpTimeouts;
  /** The protocol's classifier for non-2xx answers (status, body text, headers). */
  classifyError: (status: number, bodyText: string, headers: Headers) => ProviderError;
  /** Secrets (API keys) to blank out of any error message built from a response body. */
  redact?: string[];
  /** Called once the request is written, while the answer is awaited (work the reply will need, done meanwhile). */
  afterSend?: () => void;
}

/** Error bodies beyond this are cut: a classifier needs the start, not a 10 MB HTML page. */
const maxErrorBodyChars = 16_384;

/**
 * POST JSON and return the response body as a byte stream. Non-2xx answers are read
 * and thrown as the classifier's ProviderError (with the vendor's retry-after filled in
 * when the classifier left it out). Failures while reading the body, a stall longer
 * than `idleMs` and aborts are thrown by the iterator as ProviderErrors too.
 */
export async function postStream(options: PostStreamOptions): Promise<AsyncIterable<Uint8Array>> {
  const timeouts = { ...defaultTimeouts, ...definedOnly(options.timeouts) };
  const url = new URL(options.url);
  const context: NetworkErrorContext = {
    provider: options.provider,
    model: options.model,
    url: options.url,
    signal: options.signal,
    connectMs: timeouts.connectMs,
    firstByteMs: timeouts.firstByteMs,
  };
  const headers = { 'content-type': 'application/json', ...options.headers };
  let response: IncomingMessage;
  try {
    // Silence in the body is the idle watchdog's job (readBody).
    const answer = httpPost(url, { headers, body: encodeRequestBody(options.body), signal: options.signal, connectMs: timeouts.connectMs, firstByteMs: timeouts.firstByteMs });
    options.afterSend?.();
    response = await answer;
  } catch (error) {
    throw networkError(error, context);
  }

  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    // Built only here: the first `new Headers()` of a process loads Node's fetch
    // internals (tens of ms), which a successful answer's first token must not wait for.
    const responseHeaders = toHeaders(response.headers);
    // Through the idle watchdog and only as far as the limit: a server that stalls or
    // sends a huge page with its error status must not hang the turn or fill memory.
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of readBody(response, timeouts.idleMs, context)) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length >= maxErrorBodyChars) break;
    }
    text = (text + decoder.decode()).slice(0, maxErrorBodyChars);
    throw withRetryAfter(redactError(options.classifyError(status, text, responseHeaders), options.redact), responseHeaders);
  }
  return readBody(response, timeouts.idleMs, context);
}

let bodyReadingReady = false;

/**
 * Reads a sample body through readBody once per process (the model's prepare(), after
 * session/new): its generator, the body reader, the idle watchdog and Node's stream-end
 * tracking run for the first time there, not between a first reply's first byte and its token.
 */
export function readyBodyReading(): void {
  if (bodyReadingReady) return;
  bodyReadingReady = true;
  const sample = new PassThrough();
  sample.end(Buffer.from('data: {}\n\n'));
  void (async () => {
    for await (const chunk of readBody(sample as unknown as IncomingMessage, defaultTimeouts.idleMs, { provider: 'prepare', model: 'prepare', url: 'http://127.0.0.1/', signal: new AbortController().signal, ...defaultTimeouts })) void chunk;
  })().catch(() => undefined);
}

async function* readBody(body: IncomingMessage, idleMs: number, context: NetworkErrorContext): AsyncGenerator<Uint8Array> {
  const watchdog = createIdleWatchdog(idleMs, () => {
    body.destroy(
      new ProviderError({
        kind: 'timeout',
        provider: context.provider,
        model: context.model,
        message: `${context.provider}: the response stream stalled (no bytes for ${idleMs} ms); raise timeouts.idleMs if the model pauses longer`,
      }),
    );
  });
  const reader = new BodyReader(body);
  let settled = false;
  try {
    while (true) {
      let chunk: Buffer | null | undefined;
      try {
        chunk = reader.take();
      } catch (error) {
        settled = true;
        throw networkError(error, context);
      }
      if (chunk === null) {
        settled = true;
        return;
      }
      if (chunk !== undefined) {
        yield chunk;
        continue;
      }
      // Armed only while waiting for bytes: a slow reader downstream is not a stalled server.
      watchdog.arm();
      await reader.arrival();
      watchdog.disarm();
    }
  } finally {
    watchdog.stop();
    reader.detach();
    // Early exit: the reader stopped, mostly at the vendor's end marker. What is left is read
    // out (within limits) so the keep-alive socket can serve the next request; an abort has
    // destroyed the request and its body already. A body read to its end is left alone.
    if (!settled) releaseBody(body);
  }
}

function toHeaders(raw: IncomingMessage['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function withRetryAfter(error: ProviderError, headers: Headers): ProviderError {
  if (error.retryAfterMs !== undefined) return error;
  const retryAfterMs = parseRetryAfter(headers);
  if (retryAfterMs === undefined) return error;
  return new ProviderError({
    kind: error.kind,
    message: error.message,
    provider: error.provider,
    model: error.model,
    status: error.status,
    retryAfterMs,
    midStream: error.midStream,
  });
}

function redactError(error: ProviderError, secrets: string[] | undefined): ProviderError {
  for (const secret of secrets ?? []) {
    if (secret.length >= 8 && error.message.includes(secret)) error.message = error.message.split(secret).join('[redacted]');
  }
  return error;
}

function definedOnly(timeouts: HttpTimeouts | undefined): HttpTimeouts {
  const result: HttpTimeouts = {};
  if (timeouts?.connectMs !== undefined) result.connectMs = timeouts.connectMs;
  if (timeouts?.firstByteMs !== undefined) result.firstByteMs = timeouts.firstByteMs;
  if (timeouts?.idleMs !== undefined) result.idleMs = timeouts.idleMs;
  return result;
}
