import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { splitIntoChunks, type Chunking } from './split-into-chunks.js';

export type { Chunking } from './split-into-chunks.js';
export { loadFixture, type Fixture, type FixtureExpectation } from './load-fixture.js';
export { replayAllSplits, fixtureChunkings, type ReplayOutcome } from './replay-all-splits.js';

/** One canned HTTP response, served to the next request that arrives (any path). */
export interface ReplayResponse {
  /** HTTP status; 200 when absent. */
  status?: number;
  /** Response headers; `content-type: text/event-stream` when absent. */
  headers?: Record<string, string>;
  /** The raw body bytes (a string is encoded as UTF-8). */
  body?: Uint8Array | string;
  /** How the body is cut into separate writes; `whole` when absent. */
  chunking?: Chunking;
  /** Pause between chunks, in milliseconds; chunks still go out one write at a time when 0. */
  delayMs?: number;
  /** Send this many body bytes, then hang (headers sent, socket open) until the client goes away. */
  stallAfterBytes?: number;
  /** Send this many body bytes, then destroy the socket mid-body. */
  resetAfterBytes?: number;
  /** Send nothing, not even the status line, until the client goes away (a first-byte stall). */
  hangBeforeHeaders?: boolean;
}

/** A request the server received, for request-shape assertions. */
export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/v1/chat/completions?api-version=1`. */
  path: string;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body parsed as JSON when it is JSON, else the raw text. */
  body: unknown;
  /** The body as received, for byte-for-byte comparisons. */
  text: string;
}

export interface ReplayServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Queue a response; responses are served in FIFO order to successive requests. */
  enqueue(response: ReplayResponse): void;
  /** Every request received so far, in arrival order. */
  requests: RecordedRequest[];
  /** Stop listening and drop every open connection (stalled ones included). */
  close(): Promise<void>;
}

export interface ReplayServerOptions {
  /**
   * Answers a request when nothing is enqueued, from what was asked (for many sessions at
   * once, where a FIFO queue cannot say which session gets which response).
   */
  respond?: (request: RecordedRequest) => ReplayResponse;
  /** The loopback port to listen on (a README example names one); any free port when absent. */
  port?: number;
}

/** Start a loopback HTTP server that replays canned vendor responses byte for byte. */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const queue: ReplayResponse[] = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    // A client that goes away mid-request (an abort test) must not become an unhandled rejection.
    void handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 2_000;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    requests.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: flattenHeaders(req.headers),
      body: parseBody(text),
      text,
    });
    const response = queue.shift() ?? options.respond?.(requests.at(-1)!);
    if (response === undefined) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`replay server: no response enqueued for request #${requests.length} (${req.method} ${req.url}); call enqueue() before the request`);
      return;
    }
    await serve(res, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`replay server: 127.0.0.1:${options.port} is taken by another program; stop it (e.g. a local Ollama) to run this test`)
          : error,
      ),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    enqueue: (response) => {
      queue.push(response);
    },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(res: http.ServerResponse, response: ReplayResponse): Promise<void> {
  const body = typeof response.body === 'string' ? new TextEncoder().encode(response.body) : (response.body ?? new Uint8Array());
  if (response.hangBeforeHeaders) {
    await new Promise<void>((resolve) => res.once('close', resolve));
    return;
  }
  res.writeHead(response.status ?? 200, response.headers ?? { 'content-type': 'text/event-stream' });
  // Flush the headers now so the client sees the response start even if the body stalls.
  res.flushHeaders();
  const limit = Math.min(body.length, response.stallAfterBytes ?? Infinity, response.resetAfterBytes ?? Infinity);
  const clientGone = new Promise<void>((resolve) => res.once('close', resolve));
  let closed = false;
  void clientGone.then(() => {
    closed = true;
  });

  for (const chunk of splitIntoChunks(body.subarray(0, limit), response.chunking ?? 'whole')) {
    if (closed) return;
    await write(res, chunk);
    // Yield to the event loop so each chunk leaves as its own write rather than one coalesced buffer.
    await pause(response.delayMs ?? 0);
  }
  if (closed) return;
  if (response.stallAfterBytes !== undefined && response.stallAfterBytes < body.length) {
    await clientGone;
    return;
  }
  if (response.resetAfterBytes !== undefined && response.resetAfterBytes < body.length) {
    // Let the bytes already written reach the client before the socket goes away.
    await pause(10);
    res.socket?.destroy();
    return;
  }
  res.end();
}

function write(res: http.ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    res.write(chunk, () => resolve());
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
