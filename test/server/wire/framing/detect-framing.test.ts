import { describe, expect, it } from 'vitest';
import { detectFraming } from '../../../../src/server/wire/framing/detect-framing.js';

describe('detectFraming', () => {
  it.each([
    ['{"jsonrpc":"2.0"}', 'ndjson'],
    ['Content-Length: 12\r\n', 'content-length'],
    ['content-length: 12\r\n', 'content-length'],
    ['\n\n{"id":1}', 'ndjson'],
    ['Cont', undefined],
    ['', undefined],
    ['Cont{', 'ndjson'],
  ])('%j → %s', (input, expected) => {
    expect(detectFraming(Buffer.from(input))).toBe(expected);
  });
});
