import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicMessagesModel } from '../../../src/providers/anthropic-messages/anthropic-messages-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const request: ModelRequest = {
  model: 'claude-sonnet-4-5-20250929',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  maxTokens: 1024,
};

/** Bytes up to and including the first text delta of the UTF-8 transcript. */
function cutAfterFirstDelta(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  const end = text.indexOf('\n\n', text.indexOf('text_delta')) + 2;
  return new TextEncoder().encode(text.slice(0, end)).length;
}

describe('AnthropicMessagesModel transport failures', () => {
  let server: ReplayServer;
  let model: AnthropicMessagesModel;
  const fixture = loadFixture('anthropic-messages', 'utf8-multibyte-text');

  beforeAll(async () => {
    server = await startReplayServer();
    model = new AnthropicMessagesModel({ provider: 'anthropic', modelId: request.model, baseUrl: server.url, apiKey: 'sk-ant-x' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('ends with an aborted error, after the content so far, when the caller aborts mid-stream', async () => {
    server.enqueue({ body: fixture.bytes, stallAfterBytes: cutAfterFirstDelta(fixture.bytes) });
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

  it('ends with an aborted error before any request when the signal is already aborted', async () => {
    const before = server.requests.length;
    const events = await collectEvents(model.stream(request, AbortSignal.abort()));
    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].error.kind).toBe('aborted');
    expect(server.requests.length).toBe(before);
  });

  it('ends with a mid-stream network error when the connection drops', async () => {
    server.enqueue({ body: fixture.bytes, resetAfterBytes: cutAfterFirstDelta(fixture.bytes) });
    const events = await collectEvents(model.stream(request, new AbortController().signal));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    const last = events.at(-1);
    expect(last?.type === 'error' && { kind: last.error.kind, midStream: last.error.midStream }).toEqual({ kind: 'network', midStream: true });
  });

  it('ends with a timeout when the stream stalls longer than idleMs', async () => {
    const impatient = new AnthropicMessagesModel({ provider: 'anthropic', modelId: request.model, baseUrl: server.url, timeouts: { idleMs: 150 } });
    server.enqueue({ body: fixture.bytes, stallAfterBytes: cutAfterFirstDelta(fixture.bytes) });
    const events = await collectEvents(impatient.stream(request, new AbortController().signal));
    const last = events.at(-1);
    expect(last?.type === 'error' && { kind: last.error.kind, midStream: last.error.midStream }).toEqual({ kind: 'timeout', midStream: true });
  });
});
