import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The catalog imports models.json as a JSON module; this checks the compiled output runs
 * under plain node: tsc must copy the JSON next to the .js and node must accept the
 * `with { type: 'json' }` attribute. Only the catalog folder is compiled, to stay fast.
 */
describe('model catalog compiled to dist', () => {
  it('loads models.json under node', async () => {
    const config = {
      extends: path.join(root, 'tsconfig.json'),
      compilerOptions: {
        outDir: path.join(dir, 'dist'),
        rootDir: root,
        typeRoots: [path.join(root, 'node_modules/@types')],
        // One folder compiled on its own: not part of the composite build.
        composite: false,
        declaration: false,
        sourceMap: false,
      },
      include: [path.join(root, 'src/providers/catalog/*.ts')],
      exclude: [],
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
    await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')]);
    const compiled = path.join(dir, 'dist/src/providers/catalog/model-catalog.js');
    expect(fs.existsSync(path.join(dir, 'dist/src/providers/catalog/models.json'))).toBe(true);
    const program = `import(${JSON.stringify(compiled)}).then((m) => process.stdout.write(JSON.stringify(m.createModelCatalog().lookup('openai/gpt-5'))))`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', program]);
    expect(JSON.parse(stdout)).toEqual({
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPrice: 1.25,
      outputPrice: 10,
      cacheReadPrice: 0.125,
      tools: true,
      images: true,
      thinking: true,
      known: true,
    });
  });
});
