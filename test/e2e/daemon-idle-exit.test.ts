import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHangingServer, type HangingServer } from '../support/hangs-before-headers.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

/** Long enough that an idle daemon with a 1 s idleExitMs would have exited (it looks four times a second). */
const WELL_PAST_IDLE_MS = 3000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a daemon started on demand exits when idle; a served one does not', () => {
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let model: HangingServer | undefined;
  const children: DaemonChild[] = [];
  const pids: number[] = [];

  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.child.kill('SIGKILL');
      await child.exited;
    }
    for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await model?.close();
    model = undefined;
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** A home whose config is `config(workspace)` over a model nothing answers at (no test here reaches it but the hanging one). */
  const setUp = (config: (workspace: string) => Record<string, unknown>): NodeJS.ProcessEnv => {
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    home = makeHome({ model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } }, ...config(workspace) });
    return daemonEnv(home.home);
  };
  const ownerFile = (): string => join(home.home, 'data', 'agentd.owner.json');
  const ownerPid = (): number => (JSON.parse(readFileSync(ownerFile(), 'utf8')) as { pid: number }).pid;

  /** `agentd acp` as an editor runs it: it starts the daemon; returns the bridge and the daemon's pid. */
  const bridge = async (env: NodeJS.ProcessEnv): Promise<{ bridge: DaemonChild; daemonPid: number }> => {
    const child = spawnDaemon(['acp'], env);
    children.push(child);
    await child.peer.call('initialize', { protocolVersion: 1 });
    const daemonPid = ownerPid();
    pids.push(daemonPid);
    return { bridge: child, daemonPid };
  };

  it('exits after server.idleExitMs once the last bridge has gone, not while one is connected; doctor names the kind', async () => {
    const env = setUp(() => ({ server: { idleExitMs: 1000 } }));
    const { bridge: first, daemonPid } = await bridge(env);
    await new Promise((resolve) => setTimeout(resolve, WELL_PAST_IDLE_MS));
    expect(isAlive(daemonPid)).toBe(true);
    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout).toContain('started on demand, exits after 1 s with no client');

    first.child.stdin.end();
    await first.exited;
    await until(() => !isAlive(daemonPid), 10_000, 'the idle daemon to exit');
    expect(existsSync(ownerFile())).toBe(false);
    expect(readFileSync(join(home.home, 'state', 'logs', 'daemon.log'), 'utf8')).toContain('nothing to do for 1000 ms; exiting');
  });

  it('stays while a schedule is enabled', async () => {
    const env = setUp((cwd) => ({ server: { idleExitMs: 1000 }, schedules: [{ name: 'yearly', cron: '0 0 1 1 *', prompt: 'hello', cwd }] }));
    const { bridge: first, daemonPid } = await bridge(env);
    first.child.stdin.end();
    await first.exited;
    await new Promise((resolve) => setTimeout(resolve, WELL_PAST_IDLE_MS));
    expect(isAlive(daemonPid)).toBe(true);
  });

  it('stays while a turn runs with no client connected', async () => {
    const hanging = (model = await startHangingServer());
    const env = setUp((cwd) => ({
      providers: { local: { type: 'openai-chat', baseUrl: `${hanging.url}/v1` } },
      server: { idleExitMs: 1000 },
      // Disabled, so only the run started below keeps the daemon busy.
      schedules: [{ name: 'now', cron: '0 0 1 1 *', prompt: 'hello', cwd, enabled: false }],
    }));
    const { bridge: first, daemonPid } = await bridge(env);
    const { schedules } = await first.peer.call('schedules/list', {});
    const run = await first.peer.call('schedules/run', { id: schedules[0]!.id });
    expect(run.status).toBe('started');
    await until(() => model!.received > 0, 10_000, 'the model request');
    first.child.stdin.end();
    await first.exited;
    await new Promise((resolve) => setTimeout(resolve, WELL_PAST_IDLE_MS));
    expect(isAlive(daemonPid)).toBe(true);
  });

  it('never exits when started by agentd serve, whatever server.idleExitMs says; doctor says so', async () => {
    const env = setUp(() => ({ server: { idleExitMs: 1000 } }));
    const socketPath = join(home.home, 'run', 'agentd.sock');
    const served = spawnDaemon(['serve', '--socket'], env);
    children.push(served);
    const peer = await connectWhenListening(socketPath);
    await peer.call('initialize', { protocolVersion: 1 });
    peer.close();
    await new Promise((resolve) => setTimeout(resolve, WELL_PAST_IDLE_MS));
    expect(served.child.exitCode).toBeNull();
    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout).toContain('started by `agentd serve`, runs until stopped');
  });
});
