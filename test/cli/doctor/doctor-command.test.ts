import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { doctorCommand } from '../../../src/cli/commands/doctor.js';
import type { DoctorReport } from '../../../src/cli/doctor/doctor-check.js';
import { startReplayServer } from '../../support/replay-server.js';
import { makeTempHome, type TempHome } from './temp-home.js';
import { BUBBLEWRAP, requireProgram, RIPGREP } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);
const hasRipgrep = requireProgram(RIPGREP);

let t: TempHome;
let savedEnv: NodeJS.ProcessEnv;
let output: string;

beforeEach(() => {
  t = makeTempHome();
  savedEnv = { ...process.env };
  // Only this test's home, and no vendor keys or base URLs from the machine running the tests.
  for (const key of Object.keys(process.env)) {
    if (/_API_KEY$|_BASE_URL$|^AGENTD_|^XDG_/.test(key)) delete process.env[key];
  }
  process.env.AGENTD_HOME = t.home;
  output = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  // Restored in place: assigning a plain object to process.env would leave later test files of
  // this worker (isolate: false) an env that no longer reaches the process (os.homedir() then
  // ignores a stubbed HOME).
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  t.cleanup();
});

describe('doctorCommand', () => {
  it.skipIf(!hasBubblewrap || !hasRipgrep)('prints the checklist and exits 1 when no provider is configured', async () => {
    const code = await doctorCommand(['--cwd', t.home]);
    expect(code).toBe(1);
    expect(output).toMatch(/^ok {4}Node\.js/);
    expect(output).toMatch(/\nfail  providers +no model provider is configured/);
    expect(output).toMatch(/\n1 failed, 1 warning, \d+ ok\n$/);
  });

  it.skipIf(!hasBubblewrap || !hasRipgrep)('prints the report as JSON with --json and exits 0 when nothing fails', async () => {
    const server = await startReplayServer({ respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"data":[{"id":"tiny"}]}' }) });
    t.writeConfig({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } } });
    const code = await doctorCommand(['--json', '--cwd', t.home]).finally(() => server.close());
    const report = JSON.parse(output) as DoctorReport;
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.id === 'provider:local')?.status).toBe('ok');
  });

  it('refuses an unknown option', async () => {
    await expect(doctorCommand(['--jsn'])).rejects.toThrow("Unknown option '--jsn'");
  });
});
