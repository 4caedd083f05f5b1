import { describe, expect, it } from 'vitest';
import { normalizeFolder, rootProblem, rootsServe } from '../../src/config/folder-roots.js';

describe('normalizeFolder', () => {
  it('gives every spelling of a folder one form: no //, no . or .. segments, no trailing slash but on /', () => {
    const cases: Array<[string, string]> = [
      ['/srv/work', '/srv/work'],
      ['/srv/work/', '/srv/work'],
      ['//srv//work//', '/srv/work'],
      ['/srv/./work/.', '/srv/work'],
      ['/srv/work/../x', '/srv/x'],
      ['/srv/work/app/../../work', '/srv/work'],
      ['/', '/'],
      ['///', '/'],
      ['/..', '/'],
      ['/../../srv', '/srv'],
    ];
    for (const [spelling, normal] of cases) expect([spelling, normalizeFolder(spelling)]).toEqual([spelling, normal]);
  });
});

describe('rootProblem', () => {
  it('accepts an absolute folder, in any spelling', () => {
    for (const entry of ['/srv/work', '/srv/work/', '//srv/./work', '/']) expect(rootProblem(entry)).toBeUndefined();
  });

  it('refuses a relative path, ~, an empty or blank entry and a NUL, each saying how to write it', () => {
    expect(rootProblem('srv/work')).toBe('"srv/work" is a relative path; write an absolute folder like "/srv/work"');
    expect(rootProblem('./work')).toBe('"./work" is a relative path; write an absolute folder like "/srv/work"');
    expect(rootProblem('../work')).toBe('"../work" is a relative path; write an absolute folder like "/srv/work"');
    expect(rootProblem('~')).toBe('"~" starts with ~, which is not expanded here; write the folder in full, like "/home/you/work"');
    expect(rootProblem('~/work')).toBe('"~/work" starts with ~, which is not expanded here; write the folder in full, like "/home/you/work"');
    expect(rootProblem('')).toBe('an empty folder; write an absolute folder like "/srv/work", or remove the entry');
    expect(rootProblem('   ')).toBe('an empty folder; write an absolute folder like "/srv/work", or remove the entry');
    expect(rootProblem('/srv/\0work')).toBe('"/srv/\\u0000work" holds a NUL character, which no folder name can; remove it');
    // Not a home path on its own: ~user is refused as relative, never expanded.
    expect(rootProblem('~other/work')).toBe('"~other/work" is a relative path; write an absolute folder like "/srv/work"');
  });
});

describe('rootsServe', () => {
  const roots = ['/srv/work'];

  it('serves every folder without roots', () => {
    for (const folder of ['/', '/srv/work', '/etc', '/srv/workshop']) expect(rootsServe([], folder)).toBe(true);
  });

  it('serves the root itself and what is inside it, in every spelling', () => {
    for (const folder of ['/srv/work', '/srv/work/', '//srv/work', '/srv//work/app', '/srv/./work/app/.', '/srv/work/app/../lib', '/srv/x/../work/app']) {
      expect([folder, rootsServe(roots, folder)]).toEqual([folder, true]);
    }
  });

  it('does not serve a sibling sharing the prefix, a parent, or a path that climbs out', () => {
    for (const folder of ['/srv/workshop', '/srv/work-old', '/srv/work.bak', '/srv/wor', '/srv', '/', '/srv/work/..', '/srv/work/../x', '/srv/work/app/../../x', '/srv/work/../../srv/workshop', '/etc']) {
      expect([folder, rootsServe(roots, folder)]).toEqual([folder, false]);
    }
  });

  it('compares names exactly: another case or a look-alike character is another folder', () => {
    for (const folder of ['/srv/Work', '/SRV/work', '/srv/work\u200b', '/srv/wоrk', '/srv/work /app', '/srv/work\\app']) {
      expect([folder, rootsServe(roots, folder)]).toEqual([folder, false]);
    }
  });

  it('does not serve a relative folder, which would be read against some process cwd', () => {
    for (const folder of ['srv/work', 'work', '.', '', './srv/work']) expect([folder, rootsServe(roots, folder)]).toEqual([folder, false]);
  });

  it('reads roots in any spelling, and the root / serves every folder', () => {
    expect(rootsServe(['/srv/work/'], '/srv/work/app')).toBe(true);
    expect(rootsServe(['//srv/./work//'], '/srv/workshop')).toBe(false);
    expect(rootsServe(['/srv/x/../work'], '/srv/work/app')).toBe(true);
    for (const folder of ['/', '/etc', '/srv/workshop']) expect(rootsServe(['/'], folder)).toBe(true);
  });

  it('serves a folder inside any one of several roots, and nothing between them', () => {
    const several = ['/srv/a', '/home/b/code'];
    expect(rootsServe(several, '/srv/a/x')).toBe(true);
    expect(rootsServe(several, '/home/b/code')).toBe(true);
    expect(rootsServe(several, '/home/b')).toBe(false);
    expect(rootsServe(several, '/srv/ab')).toBe(false);
  });
});
