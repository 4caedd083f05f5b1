import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpPost } from '../../../src/providers/http/http-post.js';
import { agentFor } from '../../../src/providers/http/keep-alive-agents.js';
import { postStream, type PostStreamOptions } from '../../../src/providers/http/post-stream.js';
import { encodeRequestBody } from '../../../src/providers/http/request-body-json.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { startHangingServer, type HangingServer } from '../../support/hangs-before-headers.js';

let server: ReplayServer;
let hanging: HangingServer;
beforeAll(async () => {
  server = await startReplayServer();
  hanging = await startHangingServer();
});
afterAll(async () => {
  await server.close();
  await hanging.close();
});

function options(overrides: Partial<PostStreamOptions> = {}): PostStreamOptions {
  return {
    url: `${server.url}/v1/chat/completions`,
    headers: { authorization: 'Bearer secret-key-123456' },
    body: { hello: 'wörld' },
    signal: new AbortController().signal,
    provider: 'test',
    model: 'm1',
    classifyError: (status, bodyText) =>
      new ProviderError({ kind: status === 429 ? 'rate_limit' : 'bad_request', status, message: `classified ${status}: ${bodyText}`, provider: 'test' }),
    ...overrides,
  };
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError, but the call succeeded');
}

describe('postStream', () => {
  it('reads an error body through the idle watchdog: a stalled error answer times out', async () => {
    server.enqueue({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":"busy, more to come', stallAfterBytes: 10 });
    const error = await failure(postStream(options({ timeouts: { idleMs: 150 } })));
    expect(error.kind).toBe('timeout');
  });

  it('keeps only the start of a huge error body', async () => {
    server.enqueue({ status: 500, body: 'x'.repeat(200_000) });
    const error = await failure(postStream(options()));
    expect(error.message.length).toBeLessThan(17_000);
    expect(error.message).toMatch(/^classified 500: x+$/);
  });

  it('POSTs JSON with the given headers and streams the body bytes back', async () => {
    server.enqueue({ body: 'data: é\n\n', chunking: 'bytewise' });
    const body = await postStream(options());
    expect(await readAll(body)).toBe('data: é\n\n');
    const sent = server.requests.at(-1);
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['authorization']).toBe('Bearer secret-key-123456');
    expect(sent?.body).toEqual({ hello: 'wörld' });
  });

  it('sends large bodies whole, one after another and several at once', async () => {
    // Over the size sent as it is rather than copied; each smaller than the last.
    const bodies = [300_000, 250_000, 120_000].map((size, n) => ({ n, text: `${n}ü`.repeat(size / 3) }));
    for (const body of bodies) {
      server.enqueue({ body: 'data: ok\n\n' });
      expect(await readAll(await postStream(options({ body })))).toBe('data: ok\n\n');
      expect(server.requests.at(-1)?.text).toBe(JSON.stringify(body));
    }
    for (const _ of bodies) server.enqueue({ body: 'data: ok\n\n' });
    const sent = server.requests.length;
    await Promise.all(bodies.map(async (body) => readAll(await postStream(options({ body })))));
    const received = server.requests.slice(sent).map((request) => request.text);
    expect(received.sort()).toEqual(bodies.map((body) => JSON.stringify(body)).sort());
  });

  it('throws the classifier error for non-2xx, with retry-after filled in and secrets redacted', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '7' }, body: 'slow down, secret-key-123456' });
    const error = await failure(postStream(options({ redact: ['secret-key-123456'] })));
    expect(error.kind).toBe('rate_limit');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.message).toBe('classified 429: slow down, [redacted]');
  });

  it("hands the classifier the error answer's own headers, retry-after-ms among them", async () => {
    server.enqueue({ status: 503, headers: { 'retry-after-ms': '1500', 'x-request-id': 'req-42' }, body: 'overloaded' });
    let seen: Headers | undefined;
    const error = await failure(
      postStream(
        options({
          classifyError: (status, bodyText, headers) => {
            seen = headers;
            return new ProviderError({ kind: 'overloaded', status, message: bodyText, provider: 'test' });
          },
        }),
      ),
    );
    expect(seen?.get('x-request-id')).toBe('req-42');
    expect(error.retryAfterMs).toBe(1500);
  });

  it('calls afterSend once, after the request went out and before its answer is awaited to the end', async () => {
    server.enqueue({ body: 'data: x\n\n' });
    const order: string[] = [];
    const pending = postStream(options({ afterSend: () => void order.push(`afterSend, requests seen: ${server.requests.length}`) }));
    order.push('postStream returned');
    const body = await pending;
    order.push('answered');
    expect(await readAll(body)).toBe('data: x\n\n');
    const before = server.requests.length - 1;
    expect(order).toEqual([`afterSend, requests seen: ${before}`, 'postStream returned', 'answered']);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startReplayServer();
    const url = `${closed.url}/v1`;
    await closed.close();
    const error = await failure(postStream(options({ url })));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('reports a reset mid-body as a network error after the bytes that did arrive', async () => {
    server.enqueue({ body: 'abcdefgh', resetAfterBytes: 4 });
    const body = await postStream(options());
    const received: string[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of body) received.push(Buffer.from(chunk).toString());
      })(),
    );
    expect(received.join('')).toBe('abcd');
    expect(error.kind).toBe('network');
  });

  it('aborts a stalled body with a timeout error after idleMs', async () => {
    server.enqueue({ body: 'abcdefgh', stallAfterBytes: 2 });
    const body = await postStream(options({ timeouts: { idleMs: 150 } }));
    const error = await failure(readAll(body));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('stalled (no bytes for 150 ms)');
  });

  it('times out when no response headers arrive within firstByteMs', async () => {
    const error = await failure(postStream(options({ url: hanging.url, timeouts: { firstByteMs: 150 } })));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('no response from');
  });

  it('aborts before the response arrives, at once', async () => {
    const controller = new AbortController();
    const pending = failure(postStream(options({ url: hanging.url, signal: controller.signal })));
    setTimeout(() => controller.abort(), 50);
    const error = await pending;
    expect(error.kind).toBe('aborted');
  });

  it('aborts with an already-aborted signal', async () => {
    const error = await failure(postStream(options({ signal: AbortSignal.abort() })));
    expect(error.kind).toBe('aborted');
  });

  it('aborts mid-body, at once', async () => {
    server.enqueue({ body: 'abcdefgh', stallAfterBytes: 3 });
    const controller = new AbortController();
    const body = await postStream(options({ signal: controller.signal }));
    const iterator = body[Symbol.asyncIterator]();
    expect(Buffer.from((await iterator.next()).value as Uint8Array).toString()).toBe('abc');
    const next = failure(iterator.next());
    controller.abort();
    expect((await next).kind).toBe('aborted');
  });

  it('releases the connection when the reader stops early', async () => {
    server.enqueue({ body: 'abcdefgh', stallAfterBytes: 3 });
    const body = await postStream(options());
    for await (const chunk of body) {
      expect(Buffer.from(chunk).toString()).toBe('abc');
      break;
    }
    server.enqueue({ body: 'after' });
    expect(await readAll(await postStream(options()))).toBe('after');
  });
});

describe('postStream keep-alive', () => {
  it("keeps no socket timeout while a body streams, and the pool's own once the socket is free again", async () => {
    const plain = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.write('first');
        setTimeout(() => res.end('last'), 20);
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/v1`);
    try {
      const response = await httpPost(url, { headers: {}, body: encodeRequestBody({}), signal: new AbortController().signal, connectMs: 5_000, firstByteMs: 5_000 });
      const socket = response.socket;
      expect(socket.timeout).toBe(0);
      const parts: Buffer[] = [];
      for await (const chunk of response) parts.push(chunk as Buffer);
      expect(Buffer.concat(parts).toString()).toBe('firstlast');
      await new Promise((resolve) => setImmediate(resolve));
      const free = Object.values(agentFor(url).freeSockets).flat();
      expect(free).toContain(socket);
      // The agent's 30 s, or the server's keep-alive hint less a second (Node's server: 4 s).
      expect(socket.timeout).toBeGreaterThan(0);
      expect(socket.timeout).toBeLessThanOrEqual(30_000);
    } finally {
      await new Promise<void>((resolve) => {
        plain.close(() => resolve());
        plain.closeAllConnections();
      });
    }
  });

  it('reuses connections for successive requests to the same origin', async () => {
    const sockets = new Set<unknown>();
    const plain = http.createServer((req, res) => {
      sockets.add(req.socket);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/v1`;
    try {
      for (let i = 0; i < 5; i += 1) expect(await readAll(await postStream(options({ url })))).toBe('ok');
      // undici may open a second socket while the first is still being marked idle; never one per request.
      expect(sockets.size).toBeLessThanOrEqual(2);
    } finally {
      await new Promise<void>((resolve) => {
        plain.close(() => resolve());
        plain.closeAllConnections();
      });
    }
  });
});
