import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { answerStream, type VendorProtocol } from './answer-streams.js';
import { modelList, shortCompletion, sideText, tokenCount } from './side-answers.js';
import { listenOnLoopback } from '../support/listen-on-loopback.js';

/** When the prompt's model request reached the vendor and when the vendor wrote its answer. */
export interface ModelRequestTimes {
  /** performance.now() as the request's headers arrived. */
  arrivedAt: number;
  /** performance.now() just before the answer's first byte was written. */
  firstByteAt: number;
  /** performance.now() after the last byte was handed to the socket. */
  lastByteAt: number;
  protocol: VendorProtocol;
}

/** One request as the vendor saw it, for the run's log. */
export interface SeenRequest {
  method: string;
  path: string;
  kind: 'model' | 'side' | 'unknown';
}

export interface VendorServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /**
   * The next streaming model request whose body carries `marker` and offers tools (what
   * every coding agent sends with a prompt, and no title or quota request does) gets
   * `pieces` as its answer; resolves once that answer is written.
   */
  expect(marker: string, pieces: string[], options?: { holdAfterFirstMs?: number }): Promise<ModelRequestTimes>;
  /** Every request since the last call, then forgets them. */
  takeLog(): SeenRequest[];
  close(): Promise<void>;
}

interface Expectation {
  marker: string;
  pieces: string[];
  /** Write the opening events and the first text delta, then wait this long before the rest. */
  holdAfterFirstMs?: number;
  resolve(times: ModelRequestTimes): void;
}

/**
 * The loopback vendor every contender talks to. It speaks the four wire protocols by path:
 * `…/chat/completions`, `…/responses`, `…/messages` (and `…/messages/count_tokens`),
 * `…/models/M:streamGenerateContent` (`:generateContent`, `:countTokens`), and `GET …/models`
 * in the shape of the vendor the request's headers name. Anything else is logged and
 * answered 404, so a peer's unexpected calls show in the run's log.
 */
export async function startVendorServer(model: string): Promise<VendorServer> {
  const expectations: Expectation[] = [];
  let log: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const arrivedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      const seen: SeenRequest = { method: req.method ?? 'GET', path, kind: 'side' };
      log.push(seen);
      const protocol = protocolOf(path, req.headers);
      if (req.method === 'GET' && /\/models\/?$/.test(path)) return json(res, 200, modelList(protocol, model));
      if (path.endsWith('/count_tokens') || path.endsWith(':countTokens')) return json(res, 200, tokenCount(protocol));
      if (!isGeneration(path) || req.method !== 'POST') {
        seen.kind = 'unknown';
        console.error(`[vendor] unknown request ${req.method} ${req.url}`);
        return json(res, 404, { error: { message: `no such route on the bench vendor: ${req.method} ${path}`, type: 'not_found' } });
      }
      const parsed = parseJson(body);
      const streaming = path.endsWith(':streamGenerateContent') || parsed?.['stream'] === true;
      const offersTools = Array.isArray(parsed?.['tools']) && (parsed['tools'] as unknown[]).length > 0;
      const index = expectations.findIndex((e) => body.includes(e.marker));
      if (streaming && offersTools && index >= 0) {
        seen.kind = 'model';
        const [expectation] = expectations.splice(index, 1);
        const { frames, firstText } = answerStream(protocol, expectation!.pieces, model);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const hold = expectation!.holdAfterFirstMs;
        const firstByteAt = performance.now();
        if (hold === undefined) {
          for (const frame of frames) res.write(frame);
          res.end();
          expectation!.resolve({ arrivedAt, firstByteAt, lastByteAt: performance.now(), protocol });
          return;
        }
        // The first token alone on the wire, as a vendor sends it before the next is sampled.
        res.write(frames.slice(0, firstText + 1).join(''));
        setTimeout(() => {
          for (const frame of frames.slice(firstText + 1)) res.write(frame);
          res.end();
          expectation!.resolve({ arrivedAt, firstByteAt, lastByteAt: performance.now(), protocol });
        }, hold);
        return;
      }
      const wantsJson = /"response(Json)?Schema"|"responseMimeType":\s*"application\/json"/.test(body);
      const text = sideText(wantsJson);
      if (!streaming) return json(res, 200, shortCompletion(protocol, model, text));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of answerStream(protocol, [text], model).frames) res.write(frame);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    expect: (marker, pieces, options) => new Promise((resolve) => expectations.push({ marker, pieces, ...options, resolve })),
    takeLog() {
      const taken = log;
      log = [];
      return taken;
    },
  };
}

function isGeneration(path: string): boolean {
  return /\/chat\/completions$|\/responses$|\/messages$|:streamGenerateContent$|:generateContent$/.test(path);
}

/** Which vendor a request is for: by path, and for `GET …/models` by the vendor's auth header. */
function protocolOf(path: string, headers: http.IncomingHttpHeaders): VendorProtocol {
  if (path.endsWith('/chat/completions')) return 'openai-chat';
  if (path.endsWith('/responses')) return 'openai-responses';
  if (path.includes('/messages')) return 'anthropic-messages';
  if (path.includes(':') || headers['x-goog-api-key'] !== undefined) return 'gemini';
  if (headers['anthropic-version'] !== undefined) return 'anthropic-messages';
  return 'openai-chat';
}

function parseJson(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
