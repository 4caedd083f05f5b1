import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/cli/doctor/run-doctor.js';
import { processAlive } from '../../../src/tools/shell/kill-process-group.js';
import { until } from '../../support/daemon-process.js';
import { makeTempHome, type TempHome } from './temp-home.js';

const CRASHY = fileURLToPath(new URL('../../fixtures/mcp/crashy-server.mjs', import.meta.url));
const HANGS = fileURLToPath(new URL('../../fixtures/mcp/hangs-in-initialize.mjs', import.meta.url));

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

describe('agentd doctor: MCP servers', () => {
  it('starts each configured server, reports it running with its tools or why it did not start, and stops them', async () => {
    t.writeConfig({
      model: 'local/tiny',
      providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } },
      mcpServers: {
        crashy: { command: process.execPath, args: [CRASHY] },
        missing: { command: 'agentd-no-such-mcp-server', args: ['--x'] },
        hung: { command: process.execPath, args: [HANGS], env: { MCP_PID_FILE: `${t.home}/hung.pids` } },
      },
    });
    // Short, so the hung server's check ends soon; long enough for a node server to start on a loaded machine.
    const report = await runDoctor({ env: t.env, cwd: t.home, mcpStartupTimeoutMs: 3_000 });
    const mcp = report.checks.filter((c) => c.id.startsWith('mcp:'));
    expect(mcp).toEqual([
      { id: 'mcp:crashy', title: 'MCP crashy', status: 'ok', detail: 'running with 5 tools' },
      {
        id: 'mcp:missing',
        title: 'MCP missing',
        status: 'warn',
        detail: expect.stringMatching(/^does not start \(failed\): .*ENOENT/),
        fix: 'fix mcpServers.missing in your config, or run `agentd-no-such-mcp-server --x` by hand to see its error (a bare command name is looked up on PATH)',
      },
      {
        id: 'mcp:hung',
        title: 'MCP hung',
        status: 'warn',
        detail: expect.stringMatching(/^does not start \(failed\): did not start within \d+ ms[\s\S]*its last output: hangs-in-initialize \d+ started$/i),
        fix: expect.stringContaining('fix mcpServers.hung in your config'),
      },
    ]);
    // MCP checks come after the model ones, before the daemon.
    const ids = report.checks.map((c) => c.id);
    expect(ids.indexOf('mcp:crashy')).toBe(ids.indexOf('model') + 1);
    expect(ids.indexOf('daemon')).toBe(ids.indexOf('mcp:hung') + 1);
    // The hung server and its child were stopped when the check ended.
    const pids = readFileSync(`${t.home}/hung.pids`, 'utf8').trim().split(' ').map(Number);
    await until(() => !pids.some(processAlive), 5_000, 'the hung server and its child to be gone');
  });
});
