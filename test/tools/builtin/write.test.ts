import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from '../../../src/tools/builtin/read.js';
import { writeTool } from '../../../src/tools/builtin/write.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

describe('write', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('creates a new file and its parent directories, reporting a diff', async () => {
    const ctx = makeContext(tmp.dir);
    const result = await writeTool.execute({ path: 'deep/er/new.txt', content: 'hello\nworld\n' }, ctx);
    expect(result.isError).toBeUndefined();
    const file = path.join(tmp.dir, 'deep/er/new.txt');
    expect(fs.readFileSync(file, 'utf8')).toBe('hello\nworld\n');
    expect(textOf(result)).toContain('Created deep/er/new.txt (2 lines).');
    expect(textOf(result)).toContain('+++ b/deep/er/new.txt');
    expect(textOf(result)).toContain('+hello');
    expect(result.details?.diff).toEqual([{ path: file, oldText: null, newText: 'hello\nworld\n' }]);
    // No temp files are left behind.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['new.txt']);
  });

  it('refuses to overwrite a file that was not read in this session', async () => {
    fs.writeFileSync(path.join(tmp.dir, 'old.txt'), 'keep me\n');
    const result = await writeTool.execute({ path: 'old.txt', content: 'clobbered' }, makeContext(tmp.dir));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('read it first');
    expect(fs.readFileSync(path.join(tmp.dir, 'old.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses to overwrite a file changed on disk since it was read', async () => {
    const file = path.join(tmp.dir, 'old.txt');
    fs.writeFileSync(file, 'v1\n');
    const ctx = makeContext(tmp.dir);
    await readTool.execute({ path: 'old.txt' }, ctx);
    fs.writeFileSync(file, 'v2 by someone else\n');
    const result = await writeTool.execute({ path: 'old.txt', content: 'mine' }, ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('changed on disk since you last read it');
    expect(fs.readFileSync(file, 'utf8')).toBe('v2 by someone else\n');
  });

  it('accepts a file whose mtime moved but whose content did not (hash check)', async () => {
    const file = path.join(tmp.dir, 'touched.txt');
    fs.writeFileSync(file, 'same\n');
    const ctx = makeContext(tmp.dir);
    await readTool.execute({ path: 'touched.txt' }, ctx);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    const result = await writeTool.execute({ path: 'touched.txt', content: 'new\n' }, ctx);
    expect(result.isError).toBeUndefined();
  });

  it('overwrites a read file atomically, keeps its mode, reports the diff, and allows a second write', async () => {
    const file = path.join(tmp.dir, 'script.sh');
    fs.writeFileSync(file, 'echo one\n');
    fs.chmodSync(file, 0o751);
    const ctx = makeContext(tmp.dir);
    await readTool.execute({ path: 'script.sh' }, ctx);
    const result = await writeTool.execute({ path: 'script.sh', content: 'echo two\n' }, ctx);
    expect(result.isError).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('echo two\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o751);
    expect(textOf(result)).toContain('-echo one\n+echo two');
    expect(result.details?.diff).toEqual([{ path: file, oldText: 'echo one\n', newText: 'echo two\n' }]);
    // The write itself counts as knowing the file.
    const again = await writeTool.execute({ path: 'script.sh', content: 'echo three\n' }, ctx);
    expect(again.isError).toBeUndefined();
  });

  it('refuses to write over a directory', async () => {
    fs.mkdirSync(path.join(tmp.dir, 'dir'));
    const result = await writeTool.execute({ path: 'dir', content: 'x' }, makeContext(tmp.dir));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('is a directory');
  });
});
