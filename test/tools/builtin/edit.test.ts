import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../../src/tools/builtin/edit.js';
import { readTool } from '../../../src/tools/builtin/read.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

describe('edit', () => {
  let tmp: TempDir;
  let ctx: ToolContext;
  beforeEach(() => {
    tmp = makeTempDir();
    ctx = makeContext(tmp.dir);
  });
  afterEach(() => tmp.cleanup());

  const seed = async (name: string, content: string | Buffer): Promise<string> => {
    const file = path.join(tmp.dir, name);
    fs.writeFileSync(file, content);
    await readTool.execute({ path: name }, ctx);
    return file;
  };

  it('replaces a unique snippet and reports the diff', async () => {
    const file = await seed('a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await editTool.execute({ path: 'a.ts', old: 'const b = 2;', new: 'const b = 3;' }, ctx);
    expect(result.isError).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(textOf(result)).toContain('-const b = 2;\n+const b = 3;');
    expect(result.details?.diff).toEqual([{ path: file, oldText: 'const a = 1;\nconst b = 2;\n', newText: 'const a = 1;\nconst b = 3;\n' }]);
  });

  it('applies several edits in order, each seeing the previous result', async () => {
    const file = await seed('b.txt', 'one\ntwo\nthree\n');
    const result = await editTool.execute(
      { path: 'b.txt', edits: [{ old: 'one', new: 'uno' }, { old: 'uno\ntwo', new: 'uno\ndos' }, { old: 'three', new: 'tres' }] },
      ctx,
    );
    expect(result.isError).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('uno\ndos\ntres\n');
  });

  it('is all or none: a failing later edit leaves the file untouched', async () => {
    const file = await seed('c.txt', 'alpha\nbeta\n');
    const result = await editTool.execute(
      { path: 'c.txt', edits: [{ old: 'alpha', new: 'ALPHA' }, { old: 'gamma', new: 'GAMMA' }] },
      ctx,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Edit 2 of 2: old text not found');
    expect(textOf(result)).toContain('"gamma"');
    expect(textOf(result)).toContain('read the file again');
    expect(fs.readFileSync(file, 'utf8')).toBe('alpha\nbeta\n');
  });

  it('reports two matches with their line numbers, and replaceAll changes both', async () => {
    const file = await seed('d.txt', 'x = 1\ny = 2\nx = 1\n');
    const twice = await editTool.execute({ path: 'd.txt', old: 'x = 1', new: 'x = 9' }, ctx);
    expect(twice.isError).toBe(true);
    expect(textOf(twice)).toContain('matches 2 times in d.txt (lines 1, 3)');
    expect(textOf(twice)).toContain('replaceAll');
    const all = await editTool.execute({ path: 'd.txt', old: 'x = 1', new: 'x = 9', replaceAll: true }, ctx);
    expect(all.isError).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('x = 9\ny = 2\nx = 9\n');
  });

  it('treats $ patterns in the replacement literally', async () => {
    const file = await seed('e.txt', 'price\n');
    await editTool.execute({ path: 'e.txt', old: 'price', new: "$& $1 $$ $'" }, ctx);
    expect(fs.readFileSync(file, 'utf8')).toBe("$& $1 $$ $'\n");
  });

  it('preserves CRLF line endings and a UTF-8 BOM', async () => {
    const file = await seed('win.txt', Buffer.from('\uFEFFfirst\r\nsecond\r\nthird\r\n', 'utf8'));
    const result = await editTool.execute({ path: 'win.txt', old: 'first\nsecond', new: 'first\nSECOND\nextra' }, ctx);
    expect(result.isError).toBeUndefined();
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString('utf8')).toBe('\uFEFFfirst\r\nSECOND\r\nextra\r\nthird\r\n');
  });

  it('requires a read first, and refuses a file changed since the read', async () => {
    fs.writeFileSync(path.join(tmp.dir, 'unread.txt'), 'abc\n');
    const unread = await editTool.execute({ path: 'unread.txt', old: 'abc', new: 'xyz' }, ctx);
    expect(unread.isError).toBe(true);
    expect(textOf(unread)).toContain('read it first');

    const file = await seed('moved.txt', 'abc\n');
    fs.writeFileSync(file, 'abc changed\n');
    const stale = await editTool.execute({ path: 'moved.txt', old: 'abc', new: 'xyz' }, ctx);
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('changed on disk');
    expect(fs.readFileSync(file, 'utf8')).toBe('abc changed\n');
  });

  it('allows consecutive edits without re-reading', async () => {
    const file = await seed('f.txt', 'a\n');
    await editTool.execute({ path: 'f.txt', old: 'a', new: 'b' }, ctx);
    const second = await editTool.execute({ path: 'f.txt', old: 'b', new: 'c' }, ctx);
    expect(second.isError).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('c\n');
  });

  it('rejects bad argument combinations and missing files with clear errors', async () => {
    await seed('g.txt', 'a\n');
    const both = await editTool.execute({ path: 'g.txt', old: 'a', new: 'b', edits: [{ old: 'a', new: 'c' }] }, ctx);
    expect(textOf(both)).toContain('either edits or old/new');
    const none = await editTool.execute({ path: 'g.txt' }, ctx);
    expect(textOf(none)).toContain('Nothing to edit');
    const same = await editTool.execute({ path: 'g.txt', old: 'a', new: 'a' }, ctx);
    expect(textOf(same)).toContain('identical');
    const missing = await editTool.execute({ path: 'missing.txt', old: 'a', new: 'b' }, ctx);
    expect(textOf(missing)).toContain('does not exist; use write');
  });
});
