import { describe, expect, it } from 'vitest';
import { FrameTooLargeError } from '../../../protocol/wire/frame-too-large-error.js';
import { createNdjsonDecoder } from '../../../protocol/wire/ndjson-decoder.js';

describe('createNdjsonDecoder', () => {
  it('splits lines, drops blank lines and CR, keeps a UTF-8 sequence split across chunks whole', () => {
    const decoder = createNdjsonDecoder(1024);
    const bytes = Buffer.from('{"a":"é€"}\r\n\n{"b":1}\n{"c"', 'utf8');
    const euro = bytes.indexOf(0xe2);
    const frames = [
      ...decoder.push(bytes.subarray(0, euro + 1)),
      ...decoder.push(bytes.subarray(euro + 1, euro + 2)),
      ...decoder.push(bytes.subarray(euro + 2)),
      ...decoder.push(Buffer.from(':2}\n')),
    ];
    expect(frames).toEqual(['{"a":"é€"}', '{"b":1}', '{"c":2}']);
  });

  it('refuses a line over the limit, even before its newline arrives', () => {
    const decoder = createNdjsonDecoder(10);
    expect(() => decoder.push(Buffer.from('x'.repeat(11)))).toThrow(FrameTooLargeError);
    const other = createNdjsonDecoder(10);
    other.push(Buffer.from('x'.repeat(6)));
    expect(() => other.push(Buffer.from('x'.repeat(6) + '\n'))).toThrow(/exceeds the frame limit of 10 bytes/);
  });
});
