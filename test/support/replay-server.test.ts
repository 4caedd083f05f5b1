import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from './replay-server.js';
import { splitIntoChunks } from './split-into-chunks.js';
import { fixtureChunkings } from './replay-all-splits.js';
import { mergeDeltas } from './normalize-events.js';
import { accumulateMessage } from './collect-events.js';

describe('splitIntoChunks', () => {
  const bytes = new TextEncoder().encode('héllo\r\nworld');

  it('keeps every byte, in order, for every chunking', () => {
    for (const { chunking } of fixtureChunkings(bytes)) {
      const pieces = splitIntoChunks(bytes, chunking);
      expect(Buffer.concat(pieces)).toEqual(Buffer.from(bytes));
      expect(pieces.every((piece) => piece.length > 0)).toBe(true);
    }
  });

  it('cuts bytewise, at given offsets, and reproducibly from a seed', () => {
    expect(splitIntoChunks(bytes, 'bytewise')).toHaveLength(bytes.length);
    expect(splitIntoChunks(bytes, { splitAt: [2, 0, 99, 2, 7] }).map((p) => p.length)).toEqual([2, 5, 6]);
    expect(splitIntoChunks(bytes, { random: 7 })).toEqual(splitIntoChunks(bytes, { random: 7 }));
  });

  it('offers a cut inside the two-byte é and between CR and LF', () => {
    const tricky = fixtureChunkings(bytes).find((c) => c.label.includes('UTF-8'));
    // 'h' 0xC3 0xA9 'l' 'l' 'o' '\r' '\n': continuation byte at 2, LF at 7.
    expect(tricky?.chunking).toEqual({ splitAt: [2, 7] });
  });
});

describe('startReplayServer', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('serves queued responses in order and records each request', async () => {
    server.enqueue({ status: 201, headers: { 'x-test': 'a' }, body: 'first', chunking: 'bytewise' });
    server.enqueue({ body: 'second' });
    const first = await request(`${server.url}/v1/chat/completions?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(first.statusCode).toBe(201);
    expect(first.headers['x-test']).toBe('a');
    expect(first.headers['transfer-encoding']).toBe('chunked');
    expect(await first.body.text()).toBe('first');
    const second = await request(`${server.url}/other`, { method: 'POST', body: 'plain' });
    expect(await second.body.text()).toBe('second');
    expect(server.requests).toMatchObject([
      { method: 'POST', path: '/v1/chat/completions?x=1', body: { a: 1 }, headers: { authorization: 'Bearer k' } },
      { method: 'POST', path: '/other', body: 'plain' },
    ]);
  });

  it('answers 500 with an explanation when nothing is queued', async () => {
    const response = await request(`${server.url}/x`, { method: 'POST', body: '{}' });
    expect(response.statusCode).toBe(500);
    expect(await response.body.text()).toContain('no response enqueued');
  });

  it('destroys the socket after resetAfterBytes', async () => {
    server.enqueue({ body: 'abcdefgh', resetAfterBytes: 3 });
    const response = await request(`${server.url}/x`, { method: 'POST', body: '{}' });
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of response.body) received.push(Buffer.from(chunk as Uint8Array).toString());
      })(),
    ).rejects.toThrow();
    expect(received.join('')).toBe('abc');
  });

  it('hangs after stallAfterBytes until the client goes away', async () => {
    server.enqueue({ body: 'abcdefgh', stallAfterBytes: 2 });
    const controller = new AbortController();
    const response = await request(`${server.url}/x`, { method: 'POST', body: '{}', signal: controller.signal });
    const iterator = response.body[Symbol.asyncIterator]();
    const first = (await iterator.next()) as IteratorResult<Buffer>;
    expect(first.value.toString()).toBe('ab');
    const next = iterator.next();
    const raced = await Promise.race([next.then(() => 'data'), new Promise((r) => setTimeout(() => r('stalled'), 100))]);
    expect(raced).toBe('stalled');
    controller.abort();
    await expect(next).rejects.toThrow();
  });
});

describe('mergeDeltas and accumulateMessage', () => {
  it('merges adjacent same-kind deltas only', () => {
    expect(
      mergeDeltas([
        { type: 'text-delta', text: 'a' },
        { type: 'text-delta', text: 'b' },
        { type: 'thinking-delta', text: 'c' },
        { type: 'tool-call-delta', id: '1', argsDelta: '{' },
        { type: 'tool-call-delta', id: '1', argsDelta: '}' },
        { type: 'tool-call-delta', id: '2', argsDelta: '{' },
        { type: 'text-delta', text: 'd' },
      ]),
    ).toEqual([
      { type: 'text-delta', text: 'ab' },
      { type: 'thinking-delta', text: 'c' },
      { type: 'tool-call-delta', id: '1', argsDelta: '{}' },
      { type: 'tool-call-delta', id: '2', argsDelta: '{' },
      { type: 'text-delta', text: 'd' },
    ]);
  });

  it('folds a stream into the assistant message', () => {
    expect(
      accumulateMessage([
        { type: 'thinking-delta', text: 'hm' },
        { type: 'thinking-signature', signature: 'sig' },
        { type: 'text-delta', text: 'Hi' },
        { type: 'text-delta', text: '!' },
        { type: 'tool-call-start', id: 'c1', name: 'read' },
        { type: 'tool-call-delta', id: 'c1', argsDelta: '{}' },
        { type: 'tool-call-end', id: 'c1', name: 'read', args: { path: 'a' } },
        { type: 'tool-call-start', id: 'c2', name: 'cut' },
        { type: 'stop', reason: { unified: 'tool_use', raw: 'tool_calls' } },
      ]),
    ).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'hm', signature: 'sig' },
        { type: 'text', text: 'Hi!' },
        { type: 'tool_call', id: 'c1', name: 'read', args: { path: 'a' } },
      ],
    });
  });
});
