import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/cli/doctor/doctor-check.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';
import { BUBBLEWRAP, RIPGREP, requireProgram } from '../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);
const hasRipgrep = requireProgram(RIPGREP);

describe('agentd doctor', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function home(config?: unknown): string {
    const made = makeHome(config);
    cleanups.push(made.cleanup);
    return made.home;
  }

  it.skipIf(!hasBubblewrap || !hasRipgrep)('prints a JSON report and exits 1 when no provider is configured', async () => {
    const dir = home();
    const result = await runCli(['doctor', '--json'], daemonEnv(dir), { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('node')?.status).toBe('ok');
    expect(byId.get('providers')?.status).toBe('fail');
    expect(byId.get('sandbox')?.status).toBe('ok');
    expect(byId.get('ripgrep')?.status).toBe('ok');
    expect(byId.get('store')?.detail).toContain(join(dir, 'data', 'agentd.db'));
    // doctor only looks: it creates nothing under AGENTD_HOME.
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it.skipIf(!hasBubblewrap || !hasRipgrep)('exits 0 with a configured provider, sees the running daemon, and never prints the API key', async () => {
    const dir = home({ model: 'anthropic/claude-sonnet-4-5' });
    // Anthropic's model list, served on loopback: doctor reaches the provider without spending tokens.
    const anthropic = await startReplayServer({ respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"data":[{"id":"claude-sonnet-4-5"}]}' }) });
    cleanups.push(() => anthropic.close());
    const env = daemonEnv(dir, { ANTHROPIC_API_KEY: 'sk-ant-e2e-secret', ANTHROPIC_BASE_URL: anthropic.url });
    const daemon: DaemonChild = spawnDaemon(['serve', '--socket'], env, dir);
    cleanups.push(async () => {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    });
    const socketPath = join(dir, 'run', 'agentd.sock');
    (await connectWhenListening(socketPath)).close();

    const result = await runCli(['doctor', '--json'], env, { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('sk-ant-e2e-secret');
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.ok).toBe(true);
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('provider:anthropic')?.detail).toBe(
      `anthropic-messages at ${anthropic.url} (from ANTHROPIC_BASE_URL); API key from $ANTHROPIC_API_KEY; reached over anthropic-messages: ${anthropic.url}/v1/models lists 1 model`,
    );
    expect(anthropic.requests.map((r) => `${r.method} ${r.path} ${r.headers['x-api-key']}`)).toEqual(['GET /v1/models sk-ant-e2e-secret']);
    expect(byId.get('daemon')?.detail).toMatch(new RegExp(`^agentd \\S+ answers on ${socketPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
    expect(byId.get('store')?.detail).toMatch(/opens, schema version \d+$/);
  });

  it('prints the readable checklist without --json, with a fix under each problem', async () => {
    const dir = home({ maxTurns: 'ten' });
    const result = await runCli(['doctor'], daemonEnv(dir), { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`fail  config`);
    expect(result.stdout).toContain(`${join(dir, 'config', 'config.json')}: maxTurns:`);
    expect(result.stdout).toMatch(/\n +fix: correct each value named above/);
  });
});
