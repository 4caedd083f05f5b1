import { describe, expect, it } from 'vitest';
import { coalesceDeltas } from '../../../src/providers/http/coalesce-deltas.js';
import { streamThroughParser } from '../../../src/providers/http/stream-through-parser.js';
import { createOpenAIChatStreamParser } from '../../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';

const encoder = new TextEncoder();
const frame = (content: string): string =>
  `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

/** A response body whose reads the test hands over one at a time. */
function controlledBody(): { body: AsyncIterable<Uint8Array>; read(text: string): void; end(): void } {
  const queued: Array<Uint8Array | null> = [];
  let wake: (() => void) | undefined;
  const deliver = (item: Uint8Array | null): void => {
    queued.push(item);
    wake?.();
  };
  return {
    body: {
      async *[Symbol.asyncIterator]() {
        while (true) {
          while (queued.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          const item = queued.shift()!;
          if (item === null) return;
          yield item;
        }
      },
    },
    read: (text) => deliver(encoder.encode(text)),
    end: () => deliver(null),
  };
}

describe('coalesceDeltas', () => {
  it('joins adjacent deltas of one kind in order and keeps every other event between them', () => {
    const events: StreamEvent[] = [
      { type: 'thinking-delta', text: 'Let ' },
      { type: 'thinking-delta', text: 'me see.' },
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'text-end' },
      { type: 'text-delta', text: ', world' },
      { type: 'tool-call-start', id: 't1', name: 'read' },
      { type: 'tool-call-delta', id: 't1', argsDelta: '{"pa' },
      { type: 'tool-call-delta', id: 't1', argsDelta: 'th":"a"}' },
      { type: 'tool-call-delta', id: 't2', argsDelta: '{}' },
    ];
    expect(coalesceDeltas(events)).toEqual([
      { type: 'thinking-delta', text: 'Let me see.' },
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-end' },
      { type: 'text-delta', text: ', world' },
      { type: 'tool-call-start', id: 't1', name: 'read' },
      { type: 'tool-call-delta', id: 't1', argsDelta: '{"path":"a"}' },
      { type: 'tool-call-delta', id: 't2', argsDelta: '{}' },
    ]);
  });
});

describe('streamThroughParser', () => {
  it('passes the pieces of one read on as one delta, and a piece that arrives alone at once', async () => {
    const { body, read, end } = controlledBody();
    const parser = createOpenAIChatStreamParser({ provider: 'p', model: 'm' });
    const stream = streamThroughParser(async () => body, parser, (error) => error as ProviderError)[Symbol.asyncIterator]();

    read(frame('Hel') + frame('lo') + frame(', wor'));
    expect((await stream.next()).value).toEqual({ type: 'text-delta', text: 'Hello, wor' });

    // Nothing more has arrived: the lone piece of the next read comes out while the body stays open.
    read(frame('ld'));
    expect((await stream.next()).value).toEqual({ type: 'text-delta', text: 'ld' });

    read(`data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
    end();
    const rest: StreamEvent[] = [];
    for (let next = await stream.next(); next.done !== true; next = await stream.next()) rest.push(next.value);
    expect(rest).toEqual([{ type: 'stop', reason: expect.objectContaining({ unified: 'end_turn' }) }]);
  });
});
