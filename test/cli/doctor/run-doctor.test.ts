import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/cli/doctor/run-doctor.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { makeTempHome, type TempHome } from './temp-home.js';
import { BUBBLEWRAP, RIPGREP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);
const hasRipgrep = requireProgram(RIPGREP);

// The local provider's server: doctor reaches it through GET /v1/models.
let server: ReplayServer;
let localProvider: unknown;
beforeAll(async () => {
  server = await startReplayServer({ respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"data":[{"id":"tiny"}]}' }) });
  localProvider = { model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } } };
});
afterAll(async () => {
  await server.close();
});

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());


describe('runDoctor', () => {
  it.skipIf(!hasBubblewrap || !hasRipgrep)('runs every check in order and is ok for a fresh home with a local provider', async () => {
    t.writeConfig(localProvider);
    const report = await runDoctor({ env: t.env, cwd: t.home });
    expect(report.checks.map((c) => c.id)).toEqual([
      'node',
      'config',
      'dir:config',
      'dir:data',
      'dir:state',
      'dir:runtime',
      'store',
      'sandbox',
      'ripgrep',
      'provider:local',
      'model',
      'daemon',
      'owner',
    ]);
    expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('fails when any check fails, gives every non-ok check a fix, and skips providers for a bad config', async () => {
    t.writeConfig({ model: 42 });
    const report = await runDoctor({ env: t.env, cwd: t.home, nodeVersion: '18.19.0' });
    expect(report.ok).toBe(false);
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('node')?.status).toBe('fail');
    expect(byId.get('config')?.status).toBe('fail');
    expect(byId.get('providers')).toMatchObject({ status: 'warn', detail: 'not checked: the config is invalid' });
    for (const check of report.checks) {
      if (check.status === 'ok') expect(check.fix, check.id).toBeUndefined();
      else expect(check.fix, check.id).toMatch(/\S/);
    }
  });

  it.skipIf(!hasBubblewrap || !hasRipgrep)('reports an unusable sandbox as a warning only', async () => {
    t.writeConfig(localProvider);
    try {
      const report = await runDoctor({ env: t.env, cwd: t.home, bwrapPath: '/nonexistent/bwrap' });
      expect(report.checks.find((c) => c.id === 'sandbox')?.status).toBe('warn');
      expect(report.ok).toBe(true);
    } finally {
      const { detectSandbox } = await import('../../../src/tools/sandbox/detect-sandbox.js');
      await detectSandbox({ refresh: true });
    }
  });

  it('reads --config instead of the user file', async () => {
    const file = t.writeConfig(localProvider);
    const other = await runDoctor({ env: t.env, cwd: t.home, configFile: `${file}.missing` });
    expect(other.checks.find((c) => c.id === 'config')?.detail).toBe(`${file}.missing: config file not found; check the --config path`);
  });
});
