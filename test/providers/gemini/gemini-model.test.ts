import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModel } from '../../../src/providers/gemini/gemini-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const request: ModelRequest = {
  model: 'gemini-2.5-flash',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};

/** Bytes of the first SSE event (the first text chunk) of a transcript. */
function firstEventBytes(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  return new TextEncoder().encode(text.slice(0, text.indexOf('\r\n\r\n') + 4)).length;
}

describe('GeminiModel transport failures', () => {
  let server: ReplayServer;
  let model: GeminiModel;
  const fixture = loadFixture('gemini', 'utf8-multibyte-text');

  beforeAll(async () => {
    server = await startReplayServer();
    model = new GeminiModel({ provider: 'gemini', modelId: request.model, baseUrl: server.url, apiKey: 'AIzaSyModelTest' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('ends with an aborted error, after the content so far, when the caller aborts mid-stream', async () => {
    server.enqueue({ body: fixture.bytes, stallAfterBytes: firstEventBytes(fixture.bytes) });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of model.stream(request, controller.signal)) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    const last = events.at(-1);
    expect(last?.type === 'error' && { kind: last.error.kind, midStream: last.error.midStream }).toEqual({ kind: 'aborted', midStream: true });
  });

  it('ends with a mid-stream network error when the connection drops', async () => {
    server.enqueue({ body: fixture.bytes, resetAfterBytes: firstEventBytes(fixture.bytes) });
    const events = await collectEvents(model.stream(request, new AbortController().signal));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    const last = events.at(-1);
    expect(last?.type === 'error' && { kind: last.error.kind, midStream: last.error.midStream }).toEqual({ kind: 'network', midStream: true });
  });
});
