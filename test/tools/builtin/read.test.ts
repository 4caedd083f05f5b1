import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from '../../../src/tools/builtin/read.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('read', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  const write = (name: string, data: string | Buffer): string => {
    const file = path.join(tmp.dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data);
    return file;
  };

  it('numbers lines like cat -n and records the read', async () => {
    const file = write('a.txt', 'alpha\nbeta\n');
    const ctx = makeContext(tmp.dir);
    const result = await readTool.execute({ path: 'a.txt' }, ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('     1\talpha\n     2\tbeta');
    const snap = ctx.fileState.get(file);
    expect(snap?.size).toBe(11);
    expect(snap?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await ctx.fileState.checkUnchanged(file)).toBeUndefined();
  });

  it('reads a file without a trailing newline and strips CR', async () => {
    write('b.txt', 'one\r\ntwo');
    const result = await readTool.execute({ path: 'b.txt' }, makeContext(tmp.dir));
    expect(textOf(result)).toBe('     1\tone\n     2\ttwo');
  });

  it('caps at 2,000 lines with a hint naming the next offset, and continues from it', async () => {
    write('long.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    const ctx = makeContext(tmp.dir);
    const first = textOf(await readTool.execute({ path: 'long.txt' }, ctx));
    const lines = first.split('\n');
    expect(lines[1999]).toBe('  2000\tline 2000');
    expect(first).not.toContain('line 2001');
    expect(first).toContain('Showing lines 1-2000 of 2500');
    expect(first).toContain('offset=2001');
    const second = textOf(await readTool.execute({ path: 'long.txt', offset: 2001 }, ctx));
    expect(second.split('\n')[0]).toBe('  2001\tline 2001');
    expect(second).toContain('  2500\tline 2500');
    expect(second).not.toContain('offset=');
  });

  it('honours limit', async () => {
    write('c.txt', 'a\nb\nc\nd\n');
    const text = textOf(await readTool.execute({ path: 'c.txt', offset: 2, limit: 2 }, makeContext(tmp.dir)));
    expect(text.split('\n').slice(0, 2)).toEqual(['     2\tb', '     3\tc']);
    expect(text).toContain('Use offset=4 to continue');
  });

  it('caps output at 50 KB with a continuation hint', async () => {
    // 1,000 lines of 100 characters: about 107 KB formatted, well under 2,000 lines.
    write('wide.txt', Array.from({ length: 1000 }, (_, i) => `${String(i + 1).padStart(4, '0')}${'x'.repeat(96)}`).join('\n'));
    const text = textOf(await readTool.execute({ path: 'wide.txt' }, makeContext(tmp.dir)));
    const body = text.slice(0, text.indexOf('\n\n[Showing'));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    const shownLines = body.split('\n').length;
    expect(shownLines).toBeGreaterThan(400);
    expect(shownLines).toBeLessThan(1000);
    expect(text).toContain('50 KB output cap');
    expect(text).toContain(`offset=${shownLines + 1}`);
  });

  it('cuts lines over 2,000 characters with a marker', async () => {
    write('minified.js', `${'y'.repeat(5000)}\nshort\n`);
    const text = textOf(await readTool.execute({ path: 'minified.js' }, makeContext(tmp.dir)));
    const [first, second] = text.split('\n');
    expect(first).toBe(`     1\t${'y'.repeat(2000)} … [line cut: 3000 more characters]`);
    expect(second).toBe('     2\tshort');
  });

  it('returns images as image blocks, detected by magic bytes', async () => {
    const file = write('pic.dat', PNG);
    const ctx = makeContext(tmp.dir);
    const result = await readTool.execute({ path: 'pic.dat' }, ctx);
    expect(result.isError).toBeUndefined();
    expect(result.content[1]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
    expect(ctx.fileState.get(file)).toBeDefined();
  });

  it('refuses binary files', async () => {
    write('blob.bin', Buffer.from([0x41, 0x00, 0x42, 0x43]));
    const result = await readTool.execute({ path: 'blob.bin' }, makeContext(tmp.dir));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('binary file');
  });

  it('refuses a directory and suggests ls', async () => {
    fs.mkdirSync(path.join(tmp.dir, 'sub'));
    const result = await readTool.execute({ path: 'sub' }, makeContext(tmp.dir));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('use the ls tool');
  });

  it('reports a missing file, an empty file and an offset past the end', async () => {
    const ctx = makeContext(tmp.dir);
    expect(textOf(await readTool.execute({ path: 'nope.txt' }, ctx))).toContain('File not found: nope.txt');
    write('empty.txt', '');
    expect(textOf(await readTool.execute({ path: 'empty.txt' }, ctx))).toBe('empty.txt is empty.');
    write('two.txt', 'a\nb\n');
    const past = await readTool.execute({ path: 'two.txt', offset: 5 }, ctx);
    expect(past.isError).toBe(true);
    expect(textOf(past)).toContain('offset 5 is past the end of two.txt, which has 2 lines');
  });

  it('gives a title and a location', () => {
    expect(readTool.title({ path: 'src/a.ts' })).toBe('Read src/a.ts');
    expect(readTool.locations?.({ path: 'src/a.ts', offset: 10 }, { cwd: tmp.dir })).toEqual([
      { path: path.join(tmp.dir, 'src/a.ts'), line: 10 },
    ]);
  });
});

describe('read locations', () => {
  it('gives no location for an unusable path instead of throwing', () => {
    expect(readTool.locations?.({ path: '' }, { cwd: '/' })).toEqual([]);
  });
});
