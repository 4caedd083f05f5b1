import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EventStreamDecoder, MAX_MESSAGE_BYTES, type EventStreamMessage } from '../../../src/providers/bedrock/decode-event-stream.js';

// The published test vectors of the AWS event-stream encoding, as the AWS SDK for
// JavaScript decodes them: smithy-lang/smithy-typescript,
// packages/eventstream-codec/src/TestVectors.fixture.ts (bytes written here in hex).
const vectors = {
  payload_one_str_header: '0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f6f273a27626172277d8d9c08b1',
  int32_header: '0000002d0000001041c424b80a6576656e742d74797065040000a00c7b27666f6f273a27626172277d36f480a0',
  empty_message: '000000100000000005c248eb7d98c8ff',
  payload_no_headers: '0000001d00000000fd528c5a7b27666f6f273a27626172277dc3653936',
};
const fooBar = "{'foo':'bar'}";

const bytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, 'hex'));
const text = (message: EventStreamMessage | undefined): string => new TextDecoder().decode(message?.payload);

/** The vector with byte `at` set to `value` (the vectors' corrupted_* cases). */
function corrupted(hex: string, at: number, value: number): Uint8Array {
  const copy = bytes(hex);
  copy[at] = value;
  return copy;
}

describe('EventStreamDecoder on the published vectors', () => {
  it('decodes a string header and its payload', () => {
    const { messages, error } = new EventStreamDecoder().push(bytes(vectors.payload_one_str_header));
    expect(error).toBeUndefined();
    expect(messages).toHaveLength(1);
    expect(messages[0]?.headers).toEqual({ 'content-type': 'application/json' });
    expect(text(messages[0])).toBe(fooBar);
  });

  it('decodes an int32 header, an empty message and a message without headers', () => {
    const decoder = new EventStreamDecoder();
    const { messages } = decoder.push(new Uint8Array([...bytes(vectors.int32_header), ...bytes(vectors.empty_message), ...bytes(vectors.payload_no_headers)]));
    expect(messages.map((m) => [m.headers, text(m)])).toEqual([
      [{ 'event-type': 40972 }, fooBar],
      [{}, ''],
      [{}, fooBar],
    ]);
    expect(decoder.pendingBytes).toBe(0);
  });

  it.each([
    ['corrupted_headers (payload byte changed)', corrupted(vectors.payload_one_str_header, 45, 97), 'a message whose CRC32 does not match'],
    ['corrupted_header_len', corrupted(vectors.payload_one_str_header, 7, 33), 'a message prelude whose CRC32 does not match'],
    ['corrupted_length', corrupted(vectors.payload_one_str_header, 3, 62), 'a message prelude whose CRC32 does not match'],
    ['corrupted_payload', corrupted(vectors.payload_no_headers, 12, 91), 'a message whose CRC32 does not match'],
  ])('rejects %s', (_name, input, message) => {
    const { messages, error } = new EventStreamDecoder().push(input);
    expect(messages).toEqual([]);
    expect(error?.message).toContain(message);
  });
});

describe('EventStreamDecoder on cut and hostile input', () => {
  const all = new Uint8Array([...bytes(vectors.payload_one_str_header), ...bytes(vectors.int32_header), ...bytes(vectors.payload_no_headers)]);

  it('yields the same messages split at every point', () => {
    for (let at = 0; at <= all.length; at += 1) {
      const decoder = new EventStreamDecoder();
      const first = decoder.push(all.subarray(0, at));
      const second = decoder.push(all.subarray(at));
      expect({ at, payloads: [...first.messages, ...second.messages].map(text) }).toEqual({ at, payloads: [fooBar, fooBar, fooBar] });
      expect(decoder.pendingBytes).toBe(0);
    }
  });

  it('keeps the good messages before a corrupt one, then stays broken', () => {
    const decoder = new EventStreamDecoder();
    const { messages, error } = decoder.push(new Uint8Array([...bytes(vectors.payload_no_headers), ...corrupted(vectors.payload_no_headers, 12, 91)]));
    expect(messages.map(text)).toEqual([fooBar]);
    expect(error).toBeDefined();
    expect(decoder.push(bytes(vectors.payload_no_headers))).toEqual({ messages: [], error });
  });

  it('reports the bytes of a message cut off mid-header', () => {
    const decoder = new EventStreamDecoder();
    expect(decoder.push(bytes(vectors.payload_one_str_header).subarray(0, 20))).toEqual({ messages: [] });
    expect(decoder.pendingBytes).toBe(20);
  });

  it('refuses a length past the bound before buffering it', () => {
    const prelude = Buffer.alloc(12);
    prelude.writeUInt32BE(MAX_MESSAGE_BYTES + 1, 0);
    prelude.writeUInt32BE(0, 4);
    prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
    expect(new EventStreamDecoder().push(prelude).error?.message).toContain(`a message of ${MAX_MESSAGE_BYTES + 1} bytes`);
  });

  it('refuses headers that run past their declared length', () => {
    // One header claiming a 16-byte string inside 4 bytes of headers.
    const headers = Buffer.from([1, 0x61, 7, 0, 16]).subarray(0, 4);
    const total = 12 + headers.length + 4;
    const prelude = Buffer.alloc(12);
    prelude.writeUInt32BE(total, 0);
    prelude.writeUInt32BE(headers.length, 4);
    prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
    const body = Buffer.concat([prelude, headers]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body), 0);
    expect(new EventStreamDecoder().push(Buffer.concat([body, crc])).error?.message).toContain('headers run past their declared length');
  });
});
