import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelsCommand } from '../../src/cli/commands/models.js';
import { ConfigError } from '../../src/config/config-error.js';
import type { ModelRow } from '../../src/providers/catalog/list-model-rows.js';
import { createModelCatalog } from '../../src/providers/catalog/model-catalog.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

/** A custom OpenAI-compatible provider with one declared model, and an override of a catalog model. */
const config = {
  providers: {
    // Port 9 (discard) on loopback: nothing is contacted, the command only reads config.
    local: {
      type: 'openai-chat',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: { 'tiny-coder': { contextWindow: 65_536, maxOutputTokens: 8_192, inputPrice: 0.1, outputPrice: 0.2, thinking: true } },
    },
    anthropic: { models: { 'claude-sonnet-4-5': { inputPrice: 2.5 } } },
  },
};

const catalogSize = createModelCatalog().list().length;

describe('agentd models (child process)', () => {
  let home: ReturnType<typeof makeHome>;
  let workspace: string;

  beforeEach(() => {
    home = makeHome(config);
    // The project config of the cwd would also apply: run in an empty folder.
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(() => {
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('--json prints one object per catalog and declared model, marking configured providers', async () => {
    const result = await runCli(['models', '--json'], daemonEnv(home.home, { DEEPSEEK_API_KEY: 'sk-test-deepseek-0000' }), { cwd: workspace });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as ModelRow);
    expect(rows).toHaveLength(catalogSize + 1);
    expect(rows.find((row) => row.ref === 'local/tiny-coder')).toEqual({
      ref: 'local/tiny-coder',
      provider: 'local',
      model: 'tiny-coder',
      configured: true,
      source: 'config',
      location: null,
      contextWindow: 65_536,
      maxOutputTokens: 8_192,
      inputPrice: 0.1,
      outputPrice: 0.2,
      cacheReadPrice: null,
      cacheWritePrice: null,
      tools: true,
      images: false,
      thinking: true,
      regionalPrices: null,
    });
    expect(rows.find((row) => row.ref === 'anthropic/claude-sonnet-4-5')).toMatchObject({ source: 'catalog+config', inputPrice: 2.5, configured: false });
    const deepseek = rows.filter((row) => row.provider === 'deepseek');
    expect(deepseek.length).toBeGreaterThan(0);
    expect(deepseek.every((row) => row.configured)).toBe(true);
    // No key in the environment or config: not usable.
    expect(rows.filter((row) => row.provider === 'openai').every((row) => !row.configured)).toBe(true);
    // The key itself never reaches the output.
    expect(result.stdout).not.toContain('sk-test-deepseek');
  });

  it('prints an aligned table filtered by --provider and --configured', async () => {
    const result = await runCli(['models', '--configured', '--provider', 'local'], daemonEnv(home.home), { cwd: workspace });
    expect(result.code).toBe(0);
    const [header, first, blank] = result.stdout.split('\n');
    expect(header).toMatch(/^MODEL +CONTEXT +MAX OUT +IN +OUT +CACHE R +CACHE W +CAPABILITIES +CONFIGURED$/);
    expect(first).toMatch(/^local\/tiny-coder +65,536 +8,192 +0\.10 +0\.20 +- +- +tools,thinking +yes$/);
    expect(blank).toBe('');
  });

  it('rejects an unknown --provider with the list of known ones', async () => {
    const result = await runCli(['models', '--provider', 'nope'], daemonEnv(home.home), { cwd: workspace });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--provider "nope" is not a known provider; use one of: .*anthropic.*local/);
    expect(result.stdout).toBe('');
  });
});

describe('modelsCommand (in process)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentd-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await modelsCommand(argv, { env: { AGENTD_HOME: join(dir, 'home'), ...env }, cwd: dir, write: (text) => (out += text) });
    return { code, out };
  }

  it('reads --config FILE and lists only usable models with --configured', async () => {
    const file = join(dir, 'custom.json');
    writeFileSync(file, JSON.stringify(config));
    const { code, out } = await run(['--config', file, '--configured', '--json'], { ANTHROPIC_API_KEY: 'sk-ant-test-0000' });
    expect(code).toBe(0);
    const providers = new Set(out.trimEnd().split('\n').map((line) => (JSON.parse(line) as ModelRow).provider));
    expect([...providers].sort()).toEqual(['anthropic', 'local']);
  });

  it("shows a Vertex provider's models at the prices of its location, and says so", async () => {
    const file = join(dir, 'vertex.json');
    writeFileSync(file, JSON.stringify({ providers: { vertex: { type: 'vertex', project: 'agentd-test', location: 'us-east5' } } }));
    const json = await run(['--config', file, '--provider', 'vertex', '--json']);
    const rows = json.out.trimEnd().split('\n').map((line) => JSON.parse(line) as ModelRow);
    expect(rows.find((row) => row.model === 'claude-sonnet-4-5@20250929')).toMatchObject({ location: 'us-east5', inputPrice: 3.3, outputPrice: 16.5, regionalPrices: { inputPrice: 3.3, outputPrice: 16.5 } });
    expect(rows.find((row) => row.model === 'gemini-2.5-pro')).toMatchObject({ location: 'us-east5', inputPrice: 1.25, regionalPrices: null });
    const table = await run(['--config', file, '--provider', 'vertex']);
    expect(table.out).toMatch(/^vertex\/claude-sonnet-4-5@20250929 +200,000 +64,000 +3\.30 +16\.50 /m);
    expect(table.out).toContain('Regional prices: 3 models bill more on a regional endpoint than on "global"; shown at each provider\'s location (vertex: us-east5)');
  });

  it('names the keyless local providers that take any model id', async () => {
    const { code, out } = await run(['--provider', 'ollama']);
    expect(code).toBe(0);
    expect(out).toBe('No models match.\nConfigured, any model id (e.g. ollama/MODEL): ollama\n');
  });

  it('fails with a ConfigError naming a missing --config file', async () => {
    await expect(run(['--config', join(dir, 'missing.json')])).rejects.toThrow(ConfigError);
    await expect(run(['--config', join(dir, 'missing.json')])).rejects.toThrow(/missing\.json/);
  });

  it('rejects an unknown option', async () => {
    await expect(run(['--bogus'])).rejects.toThrow(/bogus/);
  });
});
