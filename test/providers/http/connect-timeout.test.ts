import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postStream } from '../../../src/providers/http/post-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';

/**
 * A peer that never completes a TCP handshake: a child process listens on 127.0.0.1
 * with a backlog of 1 and then blocks its event loop for good, so it never accepts.
 * Once a few connections fill its accept queue, Linux drops further SYNs and a new
 * connect hangs — the loopback stand-in for a host that does not answer.
 */
const neverAccepts = `
const net = require('node:net');
const server = net.createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n');
  setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 20);
});`;

let peer: ChildProcess;
let port: number;
const fillers: net.Socket[] = [];

beforeAll(async () => {
  peer = spawn(process.execPath, ['-e', neverAccepts], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise<number>((resolve, reject) => {
    peer.once('error', reject);
    peer.stdout?.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let i = 0; i < 6; i += 1) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
});

afterAll(() => {
  for (const socket of fillers) socket.destroy();
  peer.kill('SIGKILL');
});

describe('postStream connect timeout', () => {
  it('gives up on a server that never accepts the connection, as a retryable timeout naming the setting', async () => {
    let caught: unknown;
    try {
      await postStream({
        url: `http://127.0.0.1:${port}/v1/chat/completions?api-version=1`,
        headers: {},
        body: {},
        signal: new AbortController().signal,
        provider: 'slow',
        model: 'm',
        // The first-byte limit is far away: only the connect limit can end this.
        timeouts: { connectMs: 200, firstByteMs: 60_000 },
        classifyError: () => new ProviderError({ kind: 'server', provider: 'slow', message: 'unexpected answer' }),
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    const error = caught as ProviderError;
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      `slow: could not connect to http://127.0.0.1:${port}/v1/chat/completions within 200 ms (raise timeouts.connectMs if the server is slow to accept)`,
    );
  });
});
