import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preconnect } from '../../../src/providers/http/keep-alive-agents.js';
import { postStream, type PostStreamOptions } from '../../../src/providers/http/post-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';

/** A vendor stand-in that counts the connections it accepted and the requests it answered. */
interface CountingServer {
  url: string;
  connections: Socket[];
  requests: number;
  nextConnection(): Promise<Socket>;
  close(): Promise<void>;
}

async function startCountingServer(): Promise<CountingServer> {
  const waiting: Array<(socket: Socket) => void> = [];
  const state: CountingServer = {
    url: '',
    connections: [],
    requests: 0,
    nextConnection: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    state.requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: ok\n\n');
    });
  });
  server.on('connection', (socket: Socket) => {
    state.connections.push(socket);
    waiting.shift()?.(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function post(url: string): PostStreamOptions {
  return {
    url: `${url}/v1/chat/completions`,
    headers: {},
    body: { hello: 'world' },
    signal: new AbortController().signal,
    provider: 'test',
    model: 'm1',
    classifyError: (status, bodyText) => new ProviderError({ kind: 'server', status, message: bodyText, provider: 'test' }),
  };
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of body) text += Buffer.from(chunk).toString('utf8');
  return text;
}

describe('preconnect', () => {
  let server: CountingServer;
  beforeEach(async () => {
    server = await startCountingServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('opens one connection and sends nothing; the first request then goes over it', async () => {
    const connected = server.nextConnection();
    preconnect(`${server.url}/v1`);
    preconnect(`${server.url}/v1/other`);
    const socket = await connected;
    let bytes = 0;
    socket.on('data', (data: Buffer) => void (bytes += data.length));
    // Give a stray write every chance to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections).toHaveLength(1);
    expect(server.requests).toBe(0);
    expect(bytes).toBe(0);
    expect(await readAll(await postStream(post(server.url)))).toBe('data: ok\n\n');
    expect(server.requests).toBe(1);
    expect(server.connections).toHaveLength(1);
    expect(bytes).toBeGreaterThan(0);
  });

  it('forgets a connection the server closed: the request opens its own', async () => {
    const connected = server.nextConnection();
    preconnect(server.url);
    const socket = await connected;
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readAll(await postStream(post(server.url)))).toBe('data: ok\n\n');
    expect(server.connections).toHaveLength(2);
    expect(server.requests).toBe(1);
  });

  it('never throws: a refused connection, a URL that is none, another scheme', async () => {
    const closedPort = await startCountingServer();
    const refused = closedPort.url;
    await closedPort.close();
    expect(() => preconnect(refused)).not.toThrow();
    expect(() => preconnect('not a url')).not.toThrow();
    expect(() => preconnect('ftp://127.0.0.1:1/')).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The request to the refused origin fails as it always did, not with the preconnect's error.
    const error = await postStream(post(refused)).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('network');
  });
});
