import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grepTool } from '../../../src/tools/builtin/grep.js';
import { makeContext, makeTempDir, textOf, writeFileAt, type TempDir } from '../tool-test-context.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

describe.skipIf(!hasRipgrep)('grep', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  const put = (name: string, content: string, secondsAgo = 0): void =>
    writeFileAt(tmp.dir, name, content, secondsAgo ? new Date(Date.now() - secondsAgo * 1000) : undefined);

  it('shows matching lines as path:line:text, sorted by path, with the total', async () => {
    put('b.txt', 'nothing\nneedle two\n');
    put('a.txt', 'needle one\nhay\n');
    const result = await grepTool.execute({ pattern: 'needle' }, makeContext(tmp.dir));
    expect(textOf(result)).toBe('a.txt:1:needle one\n--\nb.txt:2:needle two\n\n[2 matches]');
  });

  it('adds context lines and separators', async () => {
    put('c.txt', 'l1\nl2\nHIT\nl4\nl5\nl6\nl7\nHIT\nl9\n');
    const text = textOf(await grepTool.execute({ pattern: 'HIT', context: 1 }, makeContext(tmp.dir)));
    expect(text).toBe('c.txt-2-l2\nc.txt:3:HIT\nc.txt-4-l4\n--\nc.txt-7-l7\nc.txt:8:HIT\nc.txt-9-l9\n\n[2 matches]');
  });

  it('is case-insensitive on request and supports multiline patterns', async () => {
    put('d.txt', 'Start\nmiddle\nend\n');
    const ctx = makeContext(tmp.dir);
    expect(textOf(await grepTool.execute({ pattern: 'start' }, ctx))).toContain('No matches');
    expect(textOf(await grepTool.execute({ pattern: 'start', caseInsensitive: true }, ctx))).toContain('d.txt:1:Start');
    const multi = textOf(await grepTool.execute({ pattern: 'Start.middle', multiline: true }, ctx));
    expect(multi).toBe('d.txt:1:Start\nd.txt:2:middle\n\n[1 match]');
  });

  it('caps content at 250 matches and reports the total', async () => {
    put('big.txt', Array.from({ length: 300 }, (_, i) => `match ${i + 1}`).join('\n'));
    const result = await grepTool.execute({ pattern: 'match' }, makeContext(tmp.dir));
    const text = textOf(result);
    const lines = text.split('\n\n')[0]?.split('\n') ?? [];
    expect(lines).toHaveLength(250);
    expect(lines[249]).toBe('big.txt:250:match 250');
    expect(text).toContain('[Showing 250 of 300 matches');
    expect(result.details?.truncated).toBe(true);
  });

  it('lists files newest first in files mode and counts in count mode', async () => {
    put('old.txt', 'x\n', 100);
    put('new.txt', 'x\nx\n', 1);
    put('none.txt', 'y\n');
    const ctx = makeContext(tmp.dir);
    expect(textOf(await grepTool.execute({ pattern: 'x', mode: 'files' }, ctx))).toBe('new.txt\nold.txt\n\n[2 files]');
    expect(textOf(await grepTool.execute({ pattern: 'x', mode: 'count' }, ctx))).toBe('new.txt:2\nold.txt:1\n\n[2 files]');
  });

  it('caps files mode at 250 and reports the total', async () => {
    for (let i = 0; i < 260; i += 1) put(`f/${i}.txt`, 'hit\n');
    const text = textOf(await grepTool.execute({ pattern: 'hit', mode: 'files' }, makeContext(tmp.dir)));
    expect(text).toContain('[Showing 250 of 260 files');
  });

  it('respects .gitignore outside a git repository, also with a glob', async () => {
    put('.gitignore', 'build/\n');
    put('build/gen.ts', 'secret\n');
    put('src/app.ts', 'secret\n');
    put('src/app.js', 'secret\n');
    const ctx = makeContext(tmp.dir);
    expect(textOf(await grepTool.execute({ pattern: 'secret', mode: 'files' }, ctx))).not.toContain('build');
    const ts = textOf(await grepTool.execute({ pattern: 'secret', glob: '*.ts', mode: 'files' }, ctx));
    expect(ts).toBe('src/app.ts\n\n[1 file]');
    const everything = textOf(await grepTool.execute({ pattern: 'secret', glob: '*', mode: 'files' }, ctx));
    expect(everything).not.toContain('build');
    const underSrc = textOf(await grepTool.execute({ pattern: 'secret', glob: 'src/*.js', mode: 'files' }, ctx));
    expect(underSrc).toBe('src/app.js\n\n[1 file]');
  });

  it('skips hidden files with a name glob too, as without one (rg lists what a file type matches, hidden or not)', async () => {
    put('.env.py', 'secret\n');
    put('app.py', 'secret\n');
    put('.config/tool.py', 'secret\n');
    const ctx = makeContext(tmp.dir);
    expect(textOf(await grepTool.execute({ pattern: 'secret', mode: 'files' }, ctx))).toBe('app.py\n\n[1 file]');
    expect(textOf(await grepTool.execute({ pattern: 'secret', glob: '*.py', mode: 'files' }, ctx))).toBe('app.py\n\n[1 file]');
    // A hidden folder named as the path is searched, as asked.
    expect(textOf(await grepTool.execute({ pattern: 'secret', glob: '*.py', path: '.config', mode: 'files' }, ctx))).toBe('.config/tool.py\n\n[1 file]');
  });

  it('searches a single file given as path, and reports a bad regex', async () => {
    put('one.txt', 'alpha\n');
    const ctx = makeContext(tmp.dir);
    expect(textOf(await grepTool.execute({ pattern: 'alpha', path: 'one.txt', mode: 'count' }, ctx))).toBe('one.txt:1\n\n[1 file]');
    const bad = await grepTool.execute({ pattern: '(unclosed' }, ctx);
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('regex parse error');
  });

  it('handles patterns starting with a dash', async () => {
    put('flags.txt', 'use --verbose here\n');
    expect(textOf(await grepTool.execute({ pattern: '--verbose' }, makeContext(tmp.dir)))).toContain('flags.txt:1:use --verbose here');
  });
});
