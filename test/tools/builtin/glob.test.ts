import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool } from '../../../src/tools/builtin/glob.js';
import { makeContext, makeTempDir, textOf, writeFileAt, type TempDir } from '../tool-test-context.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

describe.skipIf(!hasRipgrep)('glob', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  const touch = (name: string, secondsAgo: number): void => writeFileAt(tmp.dir, name, name, new Date(Date.now() - secondsAgo * 1000));

  it('lists matches newest first, relative to cwd, with the total', async () => {
    touch('src/old.ts', 300);
    touch('src/new.ts', 10);
    touch('src/mid.ts', 100);
    touch('src/readme.md', 5);
    const result = await globTool.execute({ pattern: '**/*.ts' }, makeContext(tmp.dir));
    expect(textOf(result)).toBe('src/new.ts\nsrc/mid.ts\nsrc/old.ts\n\n[3 files, newest first]');
  });

  it('searches under path and still shows paths relative to cwd', async () => {
    touch('a/x.json', 1);
    touch('b/y.json', 1);
    const result = await globTool.execute({ pattern: '*.json', path: 'b' }, makeContext(tmp.dir));
    expect(textOf(result)).toBe('b/y.json\n\n[1 file, newest first]');
  });

  it('caps at 100 paths and reports the total', async () => {
    for (let i = 0; i < 130; i += 1) touch(`many/f${i}.txt`, i);
    const result = await globTool.execute({ pattern: '*.txt' }, makeContext(tmp.dir));
    const text = textOf(result);
    const paths = text.split('\n\n')[0]?.split('\n') ?? [];
    expect(paths).toHaveLength(100);
    expect(paths[0]).toBe('many/f0.txt');
    expect(text).toContain('[Showing 100 of 130 files');
    expect(result.details?.truncated).toBe(true);
  });

  it('skips hidden files whatever the pattern (rg lists hidden files its name prefilter matches)', async () => {
    touch('.env.py', 1);
    touch('app.py', 2);
    touch('.config/tool.py', 3);
    const ctx = makeContext(tmp.dir);
    expect(textOf(await globTool.execute({ pattern: '*.py' }, ctx))).toBe('app.py\n\n[1 file, newest first]');
    expect(textOf(await globTool.execute({ pattern: '**/*' }, ctx))).toBe('app.py\n\n[1 file, newest first]');
    expect(textOf(await globTool.execute({ pattern: '*.py', path: '.config' }, ctx))).toBe('.config/tool.py\n\n[1 file, newest first]');
  });

  it('respects .gitignore outside a git repository', async () => {
    fs.writeFileSync(path.join(tmp.dir, '.gitignore'), 'build/\n*.log\n');
    touch('build/out.js', 1);
    touch('debug.log', 1);
    touch('src/app.js', 1);
    const text = textOf(await globTool.execute({ pattern: '**/*' }, makeContext(tmp.dir)));
    expect(text).toContain('src/app.js');
    expect(text).not.toContain('build/out.js');
    expect(text).not.toContain('debug.log');
  });

  it('says so when nothing matches, and refuses a file as the search path', async () => {
    touch('a.txt', 1);
    const ctx = makeContext(tmp.dir);
    expect(textOf(await globTool.execute({ pattern: '*.rs' }, ctx))).toBe('No files match *.rs in ..');
    const notDir = await globTool.execute({ pattern: '*', path: 'a.txt' }, ctx);
    expect(notDir.isError).toBe(true);
    expect(textOf(notDir)).toContain('is not a directory');
  });

  it('stops when aborted', async () => {
    touch('a.txt', 1);
    const controller = new AbortController();
    controller.abort();
    const result = await globTool.execute({ pattern: '*' }, makeContext(tmp.dir, { signal: controller.signal }));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('aborted');
  });
});
