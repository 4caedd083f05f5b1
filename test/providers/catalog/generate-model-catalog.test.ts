import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const script = path.join(root, 'scripts/generate-model-catalog.mjs');
const fixtures = path.join(root, 'test/fixtures/catalog');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function generate(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args]);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('scripts/generate-model-catalog.mjs', () => {
  it('turns the sample api.json into exactly the expected catalog', async () => {
    const out = path.join(dir, 'models.json');
    const result = await generate([
      path.join(fixtures, 'sample-api.json'),
      '--out',
      out,
      '--retrieved',
      '2026-01-02',
      '--note',
      'sample input for the generator test',
    ]);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(path.join(fixtures, 'sample-expected.json'), 'utf8'));
  });

  it('reproduces the checked-in models.json from the models.dev excerpt, regional prices and their source included', async () => {
    const out = path.join(dir, 'models.json');
    const checkedIn = path.join(root, 'src/providers/catalog/models.json');
    const { source } = JSON.parse(fs.readFileSync(checkedIn, 'utf8')) as { source: string };
    const note = source.slice(source.indexOf('; this copy: ') + 2);
    const result = await generate([path.join(fixtures, 'models-dev-excerpt.json'), '--out', out, '--retrieved', '2026-11-22', '--note', note]);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(checkedIn, 'utf8'));
    expect(source).toContain('regional prices of vertex/claude-*-4-5 models: the global prices +10% (https://docs.anthropic.com/en/api/claude-on-vertex-ai');
  });

  it('names every model it leaves out, and why', async () => {
    const result = await generate([path.join(fixtures, 'sample-api.json'), '--out', path.join(dir, 'models.json'), '--retrieved', '2026-01-02']);
    expect(result.stderr).toContain('warning: anthropic/claude-opus-4-5: no context/output limit; left out');
    expect(result.stderr).toContain('warning: openai/gpt-5-mini: deprecated; left out');
    expect(result.stderr).toContain('warning: deepseek/deepseek-reasoner: no input/output price; left out');
    expect(result.stderr).toContain('warning: openai/gpt-5.5: not in the input (openai); left out');
    expect(result.stderr).toContain('warning: xai: provider "xai" is not in the input; its models are left out');
    expect(result.stderr).toContain('wrote 5 models to');
  });

  it('fails with usage help on a missing file, bad JSON or a bad date', async () => {
    const missing = await generate([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing the path of a local api.json');
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{ not json');
    const notJson = await generate([bad, '--out', path.join(dir, 'x.json')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(`cannot read ${bad} as JSON`);
    const badDate = await generate([path.join(fixtures, 'sample-api.json'), '--out', path.join(dir, 'x.json'), '--retrieved', 'yesterday']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--retrieved must be YYYY-MM-DD');
    expect(fs.existsSync(path.join(dir, 'x.json'))).toBe(false);
  });
});
