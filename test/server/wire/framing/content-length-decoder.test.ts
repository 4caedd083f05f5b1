import { describe, expect, it } from 'vitest';
import {
  createContentLengthDecoder,
  encodeContentLength,
  FramingError,
} from '../../../../src/server/wire/framing/content-length-decoder.js';
import { FrameTooLargeError } from '../../../../protocol/wire/frame-too-large-error.js';

describe('createContentLengthDecoder', () => {
  it('decodes frames fed one byte at a time, with extra headers and multi-byte UTF-8', () => {
    const body1 = '{"jsonrpc":"2.0","method":"x","params":{"s":"日本"}}';
    const bytes = Buffer.concat([
      Buffer.from(`Content-Length: ${Buffer.byteLength(body1)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body1}`),
      encodeContentLength('{"id":2}'),
    ]);
    const decoder = createContentLengthDecoder(1024);
    const frames: string[] = [];
    for (const byte of bytes) frames.push(...decoder.push(Buffer.from([byte])));
    expect(frames).toEqual([body1, '{"id":2}']);
  });

  it('refuses a declared length over the limit before buffering the body', () => {
    const decoder = createContentLengthDecoder(100);
    expect(() => decoder.push(Buffer.from('Content-Length: 101\r\n\r\n'))).toThrow(FrameTooLargeError);
  });

  it('rejects a header block without Content-Length', () => {
    const decoder = createContentLengthDecoder(100);
    expect(() => decoder.push(Buffer.from('X-Foo: 1\r\n\r\n{}'))).toThrow(FramingError);
  });
});
