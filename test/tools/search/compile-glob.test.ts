import { describe, expect, it } from 'vitest';
import { compileGlob, pathMatchesGlob } from '../../../src/tools/search/compile-glob.js';

describe('compileGlob', () => {
  it.each([
    ['src/**', 'src', true],
    ['src/**', 'src/a.ts', true],
    ['src/**', 'src/a/b/c.ts', true],
    ['src/**', 'srcx/a.ts', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['**/*.ts', 'x/y/a.tsx', false],
    ['**/test/**', 'a/test/b.ts', true],
    ['**/test/**', 'test/b.ts', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['*.{js,ts}', 'x.ts', true],
    ['*.{js,ts}', 'x.py', false],
    ['{src,lib}/**/*.{js,ts}', 'lib/a/b.js', true],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['[!abc].txt', 'd.txt', true],
    ['file\\*.txt', 'file*.txt', true],
    ['file\\*.txt', 'filex.txt', false],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
    ['{unclosed', '{unclosed', true],
    ['/abs/**', '/abs/x', true],
  ])('%s vs %s → %s', (glob, candidate, expected) => {
    expect(compileGlob(glob).test(candidate)).toBe(expected);
  });

  it('matches file names at any depth when the glob has no slash', () => {
    expect(pathMatchesGlob('a/b/c.ts', '*.ts')).toBe(true);
    expect(pathMatchesGlob('a/b/c.ts', 'b/*.ts')).toBe(false);
    expect(pathMatchesGlob('b/c.ts', 'b/*.ts')).toBe(true);
    expect(pathMatchesGlob('b/c.ts', './b/*.ts')).toBe(true);
  });
});
