import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { loadConfig } from '../../src/config/load-config.js';
import { agentdOnPath } from '../support/agentd-on-path.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { readmeCodeBlocks } from '../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** The README's "Schedules" examples: the config block loads, the command block runs as printed. */
describe("the README's schedules examples", () => {
  const [config] = readmeCodeBlocks('README.md', '## Schedules', 'json');
  const [commands] = readmeCodeBlocks('README.md', '## Schedules', 'sh');

  it('the config block is accepted by the config loader as printed', () => {
    const home = makeHome();
    try {
      const file = join(home.home, 'schedules.json');
      writeFileSync(file, config!);
      const loaded = loadConfig({ configFile: file, cwd: home.home, paths: resolveAgentdPaths(daemonEnv(home.home)) });
      expect(loaded.config.schedules).toEqual([
        { name: 'morning-review', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', prompt: "Summarize yesterday's commits.", cwd: '/home/ada/proj', runMissed: true },
      ]);
    } finally {
      home.cleanup();
    }
  });

  describe('the command block, run by sh as printed', () => {
    let replay: ReplayServer;
    let home: ReturnType<typeof makeHome>;
    let bin: ReturnType<typeof agentdOnPath>;
    let cwd: string;
    let shPid: number | undefined;

    beforeAll(async () => {
      replay = await startReplayServer();
      home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } } });
      bin = agentdOnPath();
      cwd = mkdtempSync(join(tmpdir(), 'agentd-proj-'));
    });
    afterAll(async () => {
      // The block leaves its `agentd serve --socket &` running: stop the whole process group it started in.
      if (shPid !== undefined) {
        try {
          process.kill(-shPid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      await replay?.close();
      home?.cleanup();
      bin?.cleanup();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    it('starts the daemon, adds, lists, runs, shows the history of and disables a schedule', { timeout: 60_000 }, async () => {
      replay.enqueue({ body: chatCompletionSse(['All tests pass.']) });
      const env = { ...daemonEnv(home.home), PATH: bin.path(process.env) };
      // Its own process group (detached), so afterAll can stop the daemon the block backgrounds.
      const child = spawn('sh', ['-e', '-c', commands!], { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      shPid = child.pid;
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      // 'exit', not 'close': the background daemon keeps the output pipes open.
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      const id = /^(sch_[0-9a-f-]+) {2}tests {2}"0 \* \* \* \*"/m.exec(stdout)?.[1];
      expect(id, stdout).toBeDefined();
      expect(stdout).toMatch(new RegExp(`^started run run_\\S+ in session \\S+`, 'm'));
      expect(stdout).toMatch(/^run_\S+ {2}\S+ {2}manual {2}completed \(end_turn\) /m);
      expect(stdout).toMatch(new RegExp(`^updated ${id} {2}tests .* disabled `, 'm'));
      expect(JSON.stringify(replay.requests[0]?.body)).toContain('Run the tests and report');
    });
  });
});
