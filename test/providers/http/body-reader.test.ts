import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyReader } from '../../../src/providers/http/body-reader.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

function get(): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => http.get(server.url, resolve).on('error', reject));
}

/** Reads the whole body through a BodyReader, `between` run after each chunk (a slow consumer). */
async function readThrough(reader: BodyReader, between: () => Promise<void> = async () => undefined): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (;;) {
    const chunk = reader.take();
    if (chunk === null) return Buffer.concat(parts);
    if (chunk === undefined) {
      await reader.arrival();
      continue;
    }
    parts.push(chunk);
    await between();
  }
}

/** Cut points every `size` bytes of the big body: many separate writes. */
function every(size: number): { splitAt: number[] } {
  return { splitAt: Array.from({ length: Math.floor(bigBody.length / size) }, (_, i) => (i + 1) * size) };
}

const bigBody = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `line ${i}\n`).join(''));

describe('BodyReader', () => {
  it('gives every byte in order, what waits joined in one chunk, to a reader that keeps up', async () => {
    server.enqueue({ body: bigBody, chunking: every(1000) });
    const body = await get();
    expect((await readThrough(new BodyReader(body))).equals(bigBody)).toBe(true);
  });

  it('pauses the body while more than its high-water mark waits, and a slow reader still gets every byte after the end', async () => {
    server.enqueue({ body: bigBody, chunking: every(4096) });
    const body = await get();
    const reader = new BodyReader(body);
    let pausedSeen = false;
    // The whole answer arrives while the reader sleeps: the body must have ended (and been
    // destroyed after its end) with chunks still unread, which are given all the same.
    const read = await readThrough(reader, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      pausedSeen ||= body.isPaused();
    });
    expect(read.equals(bigBody)).toBe(true);
    expect(pausedSeen).toBe(true);
  });

  it('throws the error of a body cut off mid-way, after the bytes that arrived', async () => {
    server.enqueue({ body: bigBody, resetAfterBytes: 5000 });
    const body = await get();
    const reader = new BodyReader(body);
    const parts: Buffer[] = [];
    const error = await (async () => {
      try {
        for (;;) {
          const chunk = reader.take();
          if (chunk === null) return undefined;
          if (chunk === undefined) await reader.arrival();
          else parts.push(chunk);
        }
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect(Buffer.concat(parts).equals(bigBody.subarray(0, Buffer.concat(parts).length))).toBe(true);
    expect(Buffer.concat(parts).length).toBeLessThanOrEqual(5000);
  });

  it('gives nothing more once the body is destroyed before its end, only its error', async () => {
    server.enqueue({ body: bigBody, stallAfterBytes: 3000 });
    const body = await get();
    const reader = new BodyReader(body);
    while (reader.take() === undefined) await reader.arrival();
    body.destroy(new Error('stalled'));
    while (true) {
      let chunk: Buffer | null | undefined;
      try {
        chunk = reader.take();
      } catch (error) {
        expect((error as Error).message).toBe('stalled');
        break;
      }
      expect(chunk).toBeUndefined();
      await reader.arrival();
    }
  });
});
