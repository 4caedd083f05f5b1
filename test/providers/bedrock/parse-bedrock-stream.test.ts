import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ResponseAccumulator } from '../../../src/loop/accumulate-response.js';
import { parseBedrockStream } from '../../../src/providers/bedrock/parse-bedrock-stream.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { listFixtures, loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';

const context = { provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-20250514-v1:0', region: 'us-east-1', credentialsFrom: 'the test' };

function run(chunks: Uint8Array[]): StreamEvent[] {
  const parser = parseBedrockStream(context);
  const events: StreamEvent[] = [];
  for (const chunk of chunks) {
    events.push(...parser.pushBytes!(chunk));
    if (parser.finished) return events;
  }
  return [...events, ...parser.end()];
}

/** One event-stream message with string headers (the encoding of test/fixtures/bedrock/build-fixtures.mjs). */
function frame(headers: Record<string, string>, payload: string): Buffer {
  const head = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name);
      const v = Buffer.from(value);
      return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7, v.length >> 8, v.length & 0xff]), v]);
    }),
  );
  const body = Buffer.from(payload);
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + head.length + body.length + 4, 0);
  prelude.writeUInt32BE(head.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, head, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(message), 0);
  return Buffer.concat([message, crc]);
}
const event = (type: string, payload: unknown): Buffer => frame({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify(payload));

describe('parseBedrockStream', () => {
  it.each(listFixtures('bedrock'))('%s: the same events with the body split in two at every point', (scenario) => {
    const fixture = loadFixture('bedrock', scenario);
    for (let at = 0; at <= fixture.bytes.length; at += 1) {
      const events = run([fixture.bytes.subarray(0, at), fixture.bytes.subarray(at)]);
      expect({ at, events: toComparableEvents(events) }).toEqual({ at, events: fixture.expected.events });
    }
  });

  it.each(listFixtures('bedrock'))('%s: the loop\'s own reducer keeps the expected message, reasoning tagged as Bedrock\'s', (scenario) => {
    const fixture = loadFixture('bedrock', scenario);
    const accumulator = new ResponseAccumulator();
    for (const event of run([fixture.bytes])) accumulator.push(event);
    const { message } = accumulator.result('bedrock');
    const expected = fixture.expected.message!;
    expect(message).toEqual({ ...expected, content: expected.content.map((part) => (part.type === 'thinking' ? { ...part, providerProtocol: 'bedrock' } : part)) });
  });

  it('skips event types it does not know, as the SDKs skip unknown union members', () => {
    const events = run([event('messageStart', { role: 'assistant' }), event('futureEvent', { anything: 1 }), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }), event('messageStop', { stopReason: 'end_turn' })]);
    expect(toComparableEvents(events)).toEqual([{ type: 'text-delta', text: 'ok' }, { type: 'stop', reason: { unified: 'end_turn', raw: 'end_turn' } }]);
  });

  it('an exception before any content is retryable and not mid-stream', () => {
    const events = run([frame({ ':exception-type': 'serviceUnavailableException', ':content-type': 'application/json', ':message-type': 'exception' }, '{"message":"Bedrock is unable to process your request."}')]);
    expect(toComparableEvents(events)).toEqual([
      { type: 'error', error: { kind: 'overloaded', midStream: false, message: 'bedrock (bedrock) stream serviceUnavailableException for us.anthropic.claude-sonnet-4-20250514-v1:0 in us-east-1: Bedrock is unable to process your request.' } },
    ]);
  });

  it('an event that does not fit the Converse format names the event and the field', () => {
    const events = run([event('contentBlockDelta', { contentBlockIndex: 'zero', delta: { text: 'x' } })]);
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: {
          kind: 'server',
          midStream: false,
          message: expect.stringMatching(/^bedrock \(bedrock\): the stream sent a "contentBlockDelta" event that does not fit the Converse format at contentBlockIndex \(.+\): \{"contentBlockIndex":"zero"/),
        },
      },
    ]);
  });

  it('a body with no messageStop is cut off', () => {
    expect(toComparableEvents(run([event('messageStart', { role: 'assistant' })]))).toEqual([
      { type: 'error', error: { kind: 'network', midStream: false, message: 'bedrock (bedrock): the stream sent no messageStop before the body ended (connection closed early)' } },
    ]);
  });
});
