import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lsTool } from '../../../src/tools/builtin/ls.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

describe('ls', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('lists sorted entries with a trailing / for directories and skips node_modules and .git', async () => {
    fs.mkdirSync(path.join(tmp.dir, 'src'));
    fs.mkdirSync(path.join(tmp.dir, 'node_modules'));
    fs.mkdirSync(path.join(tmp.dir, '.git'));
    fs.writeFileSync(path.join(tmp.dir, 'b.txt'), '');
    fs.writeFileSync(path.join(tmp.dir, 'A.md'), '');
    fs.symlinkSync(path.join(tmp.dir, 'src'), path.join(tmp.dir, 'link'));
    const ctx = makeContext(tmp.dir);
    const text = textOf(await lsTool.execute({}, ctx));
    expect(text.split('\n\n')[0]).toBe('A.md\nb.txt\nlink/\nsrc/');
    expect(text).toContain('Skipped');
    expect(text).toContain('includeIgnored');
    const all = textOf(await lsTool.execute({ includeIgnored: true }, ctx));
    expect(all).toBe('.git/\nA.md\nb.txt\nlink/\nnode_modules/\nsrc/');
  });

  it('caps at 1,000 entries with a note', async () => {
    const dir = path.join(tmp.dir, 'many');
    fs.mkdirSync(dir);
    for (let i = 0; i < 1005; i += 1) fs.writeFileSync(path.join(dir, `f${String(i).padStart(4, '0')}`), '');
    const result = await lsTool.execute({ path: 'many' }, makeContext(tmp.dir));
    const text = textOf(result);
    expect(text.split('\n\n')[0]?.split('\n')).toHaveLength(1000);
    expect(text).toContain('[Showing 1000 of 1005 entries');
    expect(result.details?.truncated).toBe(true);
  });

  it('reports an empty directory, a file and a missing path', async () => {
    fs.mkdirSync(path.join(tmp.dir, 'empty'));
    fs.writeFileSync(path.join(tmp.dir, 'f.txt'), '');
    const ctx = makeContext(tmp.dir);
    expect(textOf(await lsTool.execute({ path: 'empty' }, ctx))).toBe('empty is empty.');
    expect(textOf(await lsTool.execute({ path: 'f.txt' }, ctx))).toContain('use read');
    expect(textOf(await lsTool.execute({ path: 'gone' }, ctx))).toBe('gone does not exist.');
  });
});
