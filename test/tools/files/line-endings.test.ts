import { describe, expect, it } from 'vitest';
import { normaliseText, restoreText, toLf } from '../../../src/tools/files/line-endings.js';

describe('line endings', () => {
  it.each([
    ['LF', 'a\nb\n', { text: 'a\nb\n', bom: false, crlf: false }],
    ['CRLF', 'a\r\nb\r\n', { text: 'a\nb\n', bom: false, crlf: true }],
    ['BOM + CRLF', '\uFEFFa\r\nb', { text: 'a\nb', bom: true, crlf: true }],
    ['mixed stays as is', 'a\r\nb\nc', { text: 'a\r\nb\nc', bom: false, crlf: false }],
    ['no newline', 'abc', { text: 'abc', bom: false, crlf: false }],
  ])('%s', (_name, raw, expected) => {
    const normal = normaliseText(raw);
    expect(normal).toEqual(expected);
    expect(restoreText(normal.text, normal)).toBe(raw);
  });

  it('converts snippets to LF', () => {
    expect(toLf('a\r\nb\r\n')).toBe('a\nb\n');
  });
});
