import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OUTPUT_MAX_CHARS, OutputCollector } from '../../../src/tools/shell/output-collector.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';

describe('OutputCollector', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(() => tmp.cleanup());

  it('keeps short output whole and writes no file', async () => {
    const file = path.join(tmp.dir, 'out/full.log');
    const collector = new OutputCollector(file);
    collector.push('hello ');
    collector.push('world');
    expect(await collector.finish()).toEqual({ text: 'hello world', totalChars: 11, truncated: false });
    expect(fs.existsSync(file)).toBe(false);
  });

  it('keeps exactly the budget without cutting', async () => {
    const collector = new OutputCollector(path.join(tmp.dir, 'f.log'));
    collector.push('a'.repeat(OUTPUT_MAX_CHARS));
    expect((await collector.finish()).truncated).toBe(false);
  });

  it('keeps head and tail of long output and spills everything to the file', async () => {
    const file = path.join(tmp.dir, 'out/full.log');
    const collector = new OutputCollector(file);
    const pieces = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`);
    for (const piece of pieces) collector.push(piece);
    const result = await collector.finish();
    expect(result.truncated).toBe(true);
    expect(result.fullOutputPath).toBe(file);
    expect(fs.readFileSync(file, 'utf8')).toBe(pieces.join(''));
    expect(result.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(result.text.endsWith('line 4999\n')).toBe(true);
    expect(result.text).toContain(`characters omitted; full output: ${file}`);
    expect(result.text.length).toBeLessThan(OUTPUT_MAX_CHARS + 200);
  });

  it('says so when the full output cannot be saved', async () => {
    fs.writeFileSync(path.join(tmp.dir, 'blocker'), '');
    const collector = new OutputCollector(path.join(tmp.dir, 'blocker/full.log'));
    collector.push('x'.repeat(OUTPUT_MAX_CHARS + 10));
    collector.push('more');
    const result = await collector.finish();
    expect(result.truncated).toBe(true);
    expect(result.fullOutputPath).toBeUndefined();
    expect(result.text).toContain('could not be saved');
  });
});
