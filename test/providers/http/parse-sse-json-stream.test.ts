import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseSseJsonStream, type SseJsonMapping } from '../../../src/providers/http/parse-sse-json-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { toComparableEvents } from '../../support/normalize-events.js';

const schema = z.looseObject({ kind: z.enum(['text', 'stop']), text: z.string().optional() });

/** A toy protocol: `{kind:'text', text}` is text, `{kind:'stop'}` ends it, `[END]` ends it too. */
function toyParser(overrides: Partial<SseJsonMapping<z.infer<typeof schema>>> = {}) {
  const positions: number[] = [];
  const parser = parseSseJsonStream({
    protocol: 'toy',
    context: { provider: 'p', model: 'm' },
    schema,
    onMarker(data, sink) {
      if (data !== '[END]') return false;
      sink.emit({ type: 'stop', reason: { unified: 'end_turn', raw: 'end' } });
      return true;
    },
    onEvent(value, sink) {
      positions.push(sink.position);
      if (value.kind === 'text') sink.emit({ type: 'text-delta', text: value.text ?? '' });
      else sink.emit({ type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } });
    },
    onEnd(sink) {
      sink.fail(new ProviderError({ kind: 'network', message: 'cut short', provider: 'p' }));
    },
    ...overrides,
  });
  return { parser, positions };
}

describe('parseSseJsonStream', () => {
  it('maps events, skips comments, empty data and JSON that is no object, counts every event, and ignores all after the stop', () => {
    const { parser, positions } = toyParser();
    const events = parser.push('data: : keepalive\n\ndata:\n\ndata: 7\n\ndata: {"kind":"text","text":"a"}\n\ndata: {"kind":"stop"}\n\ndata: {"kind":"text","text":"late"}\n\n');
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }, { type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } }]);
    expect(positions).toEqual([4, 5]);
    expect(parser.finished).toBe(true);
    expect(parser.end()).toEqual([]);
    expect(parser.fail(new ProviderError({ kind: 'network', message: 'late', provider: 'p' }))).toEqual([]);
  });

  it('lets the mapping handle a marker and skip events it does not read', () => {
    const { parser } = toyParser({ reads: (json) => json.kind !== 'ignored' });
    expect(parser.push('data: {"kind":"ignored"}\n\ndata: [END]\n\n')).toEqual([{ type: 'stop', reason: { unified: 'end_turn', raw: 'end' } }]);
  });

  it('ends a body that stops early, or on a line cut off mid-JSON, through the mapping, flagged mid-stream after content', () => {
    const cut = toyParser().parser;
    cut.push('data: {"kind":"text","text":"a"}\n\ndata: {"kind":"te');
    expect(toComparableEvents(cut.end())).toEqual([{ type: 'error', error: { kind: 'network', message: 'cut short', midStream: true } }]);
    const last = toyParser().parser;
    // The body ended on an event without its blank line: it still counts.
    expect(last.push('data: {"kind":"stop"}')).toEqual([]);
    expect(last.end()).toEqual([{ type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } }]);
  });

  it('ends with a server error naming the protocol for data that is not JSON and the field for an event that does not fit', () => {
    const notJson = toyParser().parser;
    expect(toComparableEvents(notJson.push('data: {nope\n\n'))).toEqual([
      { type: 'error', error: { kind: 'server', message: 'p (toy): the stream sent data that is not JSON: {nope', midStream: false } },
    ]);
    const misfit = toyParser().parser;
    expect(toComparableEvents(misfit.push('data: {"kind":"text","text":1}\n\n'))).toEqual([
      {
        type: 'error',
        error: {
          kind: 'server',
          message: 'p (toy): the stream sent an event that does not fit the toy format at text (Invalid input: expected string, received number): {"kind":"text","text":1}',
          midStream: false,
        },
      },
    ]);
  });

  it('marks a transport failure after content as mid-stream, and not before', () => {
    const before = toyParser().parser;
    expect(toComparableEvents(before.fail(new ProviderError({ kind: 'timeout', message: 'stalled', provider: 'p' })))).toEqual([
      { type: 'error', error: { kind: 'timeout', message: 'stalled', midStream: false } },
    ]);
    const after = toyParser().parser;
    after.push('data: {"kind":"text","text":"a"}\n\n');
    expect(toComparableEvents(after.fail(new ProviderError({ kind: 'timeout', message: 'stalled', provider: 'p' })))).toEqual([
      { type: 'error', error: { kind: 'timeout', message: 'stalled', midStream: true } },
    ]);
  });
});
