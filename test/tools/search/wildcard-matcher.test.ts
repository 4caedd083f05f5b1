import { describe, expect, it } from 'vitest';
import { compileWildcard, literalChar, literalText, starPattern, type WildcardPiece } from '../../../src/tools/search/wildcard-matcher.js';

const any: WildcardPiece = { kind: 'any', test: () => true };

describe('compileWildcard', () => {
  it.each([
    [literalText('abc'), 'abc', true],
    [literalText('abc'), 'abcd', false],
    [literalText(''), '', true],
    [{ kind: 'seq', pieces: [literalChar('a'), any, literalChar('b')] }, 'a\nxyzb', true],
    [{ kind: 'seq', pieces: [literalChar('a'), any, literalChar('b')] }, 'ab', true],
    [{ kind: 'seq', pieces: [literalChar('a'), any, literalChar('b')] }, 'abx', false],
    [{ kind: 'alt', options: [literalText('js'), literalText('ts')] }, 'ts', true],
    [{ kind: 'alt', options: [literalText('js'), literalText('ts')] }, 'py', false],
    [{ kind: 'seq', pieces: [literalText('x'), { kind: 'opt', piece: literalText('yz') }] }, 'x', true],
    [{ kind: 'seq', pieces: [literalText('x'), { kind: 'opt', piece: literalText('yz') }] }, 'xyz', true],
    [{ kind: 'seq', pieces: [literalText('x'), { kind: 'opt', piece: literalText('yz') }] }, 'xy', false],
    [{ kind: 'any', test: (c: number) => c !== 0x2f }, 'a/b', false],
  ] as Array<[WildcardPiece, string, boolean]>)('%# matches %j: %s', (pattern, text, expected) => {
    expect(compileWildcard(pattern).test(text)).toBe(expected);
  });

  it('reads `*` as a wildcard and, with escapes, `\\*` as a star', () => {
    expect(compileWildcard(starPattern('a*c', () => true, false)).test('abbbc')).toBe(true);
    expect(compileWildcard(starPattern('a\\*c', () => true, true)).test('a*c')).toBe(true);
    expect(compileWildcard(starPattern('a\\*c', () => true, true)).test('abc')).toBe(false);
  });
});
