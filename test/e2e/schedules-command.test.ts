import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

describe('agentd schedules against a running daemon', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let daemon: DaemonChild | undefined;

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    home = makeHome({
      model: 'local/tiny',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      schedules: [{ name: 'nightly', cron: '0 3 * * *', timezone: 'UTC', prompt: 'p', cwd: workspace }],
    });
    env = daemonEnv(home.home);
  });

  afterEach(async () => {
    if (daemon) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('needs the daemon, then adds, lists, runs, shows history, refuses with the daemon\'s messages, and removes', async () => {
    const none = await runCli(['schedules', 'list'], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no daemon runs for');
    expect(none.stderr).toContain('agentd serve --socket');

    const socketPath = join(home.home, 'agentd.sock');
    daemon = spawnDaemon(['serve', '--socket', socketPath], env);
    (await connectWhenListening(socketPath)).close();

    const added = await runCli(['schedules', 'add', '--name', 'hourly', '--cron', '0 * * * *', '--timezone', 'Europe/Berlin', '--prompt', 'status please', '--json'], env, { cwd: workspace });
    expect(added.code).toBe(0);
    const schedule = JSON.parse(added.stdout);
    expect(schedule).toMatchObject({ name: 'hourly', cwd: workspace, timezone: 'Europe/Berlin', source: 'protocol', enabled: true });

    const listed = await runCli(['schedules'], env);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^nightly {2}nightly {2}"0 3 \* \* \*" UTC {2}next \S+ {2}config/);
    expect(lines[1]).toMatch(new RegExp(`^${schedule.id} {2}hourly {2}"0 \\* \\* \\* \\*" Europe/Berlin {2}next \\S+ {2}protocol {2}${workspace}$`));

    replay.enqueue({ body: chatCompletionSse(['all ', 'green']) });
    const run = await runCli(['schedules', 'run', schedule.id], env);
    expect(run.code).toBe(0);
    const [, runId, sessionId] = /^started run (\S+) in session (\S+) /.exec(run.stdout)!;
    let history = '';
    await until(async () => {
      history = (await runCli(['schedules', 'history', schedule.id], env)).stdout;
      return history.includes('completed');
    }, 15_000, 'the run to complete');
    expect(history).toMatch(new RegExp(`^${runId} {2}\\S+ {2}manual {2}completed \\(end_turn\\) {2}\\$0\\.0000 {2}${sessionId}\\n$`));

    const badCron = await runCli(['schedules', 'update', schedule.id, '--cron', '0 25 * * *'], env);
    expect(badCron.code).toBe(1);
    expect(badCron.stderr).toBe('agentd: cron: the hour field "25" of "0 25 * * *" is not valid (Invalid value for hour: 25); hours are 0-23\n');
    const readOnly = await runCli(['schedules', 'remove', 'nightly'], env);
    expect(readOnly.stderr).toContain('comes from config.json and cannot be removed over the protocol; edit its entry under "schedules" in config.json instead');

    const disabled = await runCli(['schedules', 'update', schedule.id, '--disable'], env);
    expect(disabled.stdout).toMatch(/^updated \S+ {2}hourly .* disabled {2}protocol/);
    const removed = await runCli(['schedules', 'remove', schedule.id], env);
    expect(removed).toMatchObject({ code: 0, stderr: `agentd: removed schedule ${schedule.id} (its history is kept)\n` });
    expect((await runCli(['schedules', 'list', '--json'], env)).stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['nightly']);
  });

  it('agentd run does not fire schedules; a serving daemon catches up the missed run', async () => {
    // An added schedule, last run in 2024 and due every New Year since, that wants missed runs.
    const store = openStore(resolveAgentdPaths(env).databaseFile, { now: () => new Date('2024-06-01T00:00:00Z') });
    const definition = { cron: '0 0 1 1 *', timezone: 'UTC', prompt: 'catch up', cwd: workspace, timeoutMs: 60_000, permissionMode: 'ask', overlap: 'skip', runMissed: true, enabled: true };
    await store.schedules.saveSchedule({ id: 'sch_old', name: 'old', definition });
    await store.schedules.startRun({ id: 'run_2024', scheduleId: 'sch_old', sessionId: null, trigger: 'cron' });
    await store.schedules.finishRun('run_2024', { outcome: 'completed' });
    store.close();

    replay.enqueue({ body: chatCompletionSse(['hi']) });
    const run = await runCli(['run', '--cwd', workspace, 'just this'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'hi\n' });
    expect(replay.requests).toHaveLength(1);

    replay.enqueue({ body: chatCompletionSse(['caught up']) });
    const socketPath = join(home.home, 'agentd.sock');
    daemon = spawnDaemon(['serve', '--socket', socketPath], env);
    let history = '';
    await until(async () => {
      history = (await runCli(['schedules', 'history', 'sch_old'], env)).stdout;
      return /missed {2}completed/.test(history);
    }, 15_000, 'the missed run');
    expect(history.trim().split('\n').map((line) => line.split('  ')[2])).toEqual(['missed', 'cron']);
    expect(JSON.stringify(replay.requests[1]!.body)).toContain('catch up');
  });
});
