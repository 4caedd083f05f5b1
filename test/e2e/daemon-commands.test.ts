import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, connectWhenListening, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

describe('agentd status, stop and logs against a spawned daemon', () => {
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let socketPath: string;
  const children: DaemonChild[] = [];

  beforeEach(() => {
    home = makeHome({ model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    env = daemonEnv(home.home);
    socketPath = join(home.home, 'run', 'agentd.sock');
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.child.kill('SIGKILL');
      await child.exited;
    }
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  const serve = async (args: string[]): Promise<DaemonChild> => {
    const child = spawnDaemon(['serve', '--socket', ...args], env);
    children.push(child);
    const peer = await connectWhenListening(socketPath);
    peer.close();
    return child;
  };

  it('with none running: status exits 3, stop says there is nothing to stop, logs says where the log would be', async () => {
    const status = await runCli(['status'], env);
    expect(status.code).toBe(3);
    expect(status.stdout).toContain('agentd is not running');
    const stop = await runCli(['stop'], env);
    expect(stop).toMatchObject({ code: 0, stdout: expect.stringContaining('agentd is not running') });
    expect(stop.stdout).toContain('nothing to stop');
    const logs = await runCli(['logs'], env);
    expect(logs.code).toBe(1);
    expect(logs.stderr).toContain(`no daemon log at ${join(home.home, 'state', 'logs', 'daemon.log')} yet`);
  });

  it('status shows a daemon started on demand, its sessions and log; logs prints it; stop ends it', async () => {
    const daemon = await serve(['--on-demand']);
    const peer = await connectWhenListening(socketPath);
    await peer.call('initialize', { protocolVersion: 1 });
    await peer.call('session/new', { cwd: workspace, mcpServers: [] });

    const status = await runCli(['status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`is running (pid ${daemon.child.pid}): started on demand, exits after 30 min`);
    expect(status.stdout).toContain(`socket:   ${socketPath}`);
    expect(status.stdout).toContain('clients:  1 connected');
    expect(status.stdout).toContain('sessions: 1 loaded, 0 running');
    const logFile = join(home.home, 'state', 'logs', 'daemon.log');
    expect(status.stdout).toContain(`log:      ${logFile} (agentd logs)`);
    expect(status.stdout).toContain(`store:    SQLite, ${join(home.home, 'data', 'agentd.db')}`);
    const json = JSON.parse((await runCli(['status', '--json'], env)).stdout);
    expect(json).toMatchObject({ running: true, pid: daemon.child.pid, sessions: { loaded: 1, running: 0 }, idleExitMs: 1_800_000, logFile });

    const logs = await runCli(['logs'], env);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain(`serving ${socketPath}`);
    peer.close();

    const stop = await runCli(['stop'], env);
    expect(stop).toEqual({ code: 0, stdout: `stopped agentd (pid ${daemon.child.pid})\n`, stderr: '' });
    // Gone by the time stop returns: a graceful exit, not a kill.
    expect(daemon.child.exitCode ?? (await daemon.exited).code).toBe(0);
    expect((await runCli(['status'], env)).code).toBe(3);
  });

  it('logs -f prints what the daemon appends until interrupted', async () => {
    await serve(['--on-demand']);
    const follower = spawn(process.execPath, [CLI, 'logs', '-f'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    follower.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    try {
      await until(() => out.includes(`serving ${socketPath}`), 10_000, 'the log so far');
      // Something the daemon logs only now: a notification it does not know.
      const peer = await connectWhenListening(socketPath);
      await peer.call('initialize', { protocolVersion: 1 });
      peer.notifyUnchecked('no/such_method', {});
      await until(() => out.includes('notification no/such_method ignored'), 10_000, 'the appended line');
      peer.close();
    } finally {
      follower.kill('SIGINT');
    }
    const [code, signal] = (await new Promise((resolve) => follower.once('exit', (c, s) => resolve([c, s])))) as [number | null, string | null];
    expect(code === 130 || signal === 'SIGINT').toBe(true);
  });

  it('a daemon started on demand that cannot start leaves the reason where agentd logs looks', async () => {
    const bad = makeHome({ maxTurns: 'ten' });
    try {
      const badEnv = daemonEnv(bad.home);
      // As a client starts it: nobody reads its stderr.
      const started = await runCli(['serve', '--socket', '--on-demand'], badEnv);
      expect(started.code).toBe(78);
      const logs = await runCli(['logs'], badEnv);
      expect(logs.stdout).toContain('maxTurns: expected a whole number, got the string "ten"');
    } finally {
      bad.cleanup();
    }
  });

  it('status names a daemon started by agentd serve, which logs to its stderr; logs says so; stop ends it', async () => {
    const daemon = await serve([]);
    const status = await runCli(['status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('started by `agentd serve`, runs until stopped');
    expect(status.stdout).toContain('clients:  0 connected');
    expect(status.stdout).toContain('sessions: 0 loaded, 0 running');
    expect(status.stdout).toContain('log:      its stderr');
    const logs = await runCli(['logs'], env);
    expect(logs.stderr).toContain(`the running daemon (pid ${daemon.child.pid}) was started by \`agentd serve\` and logs to its stderr`);
    expect((await runCli(['stop'], env)).stdout).toBe(`stopped agentd (pid ${daemon.child.pid})\n`);
    await daemon.exited;
  });
});

describe("the README's daemon commands", () => {
  it('run as printed against a daemon started on demand', async () => {
    const home = makeHome({ model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } } });
    const env = daemonEnv(home.home);
    const daemon = spawnDaemon(['serve', '--socket', '--on-demand'], env);
    try {
      (await connectWhenListening(join(home.home, 'run', 'agentd.sock'))).close();
      const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
      const block = /The shared daemon itself:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
      const commands = block!.trim().split('\n').map((line) => line.replace(/#.*$/, '').trim().split(/\s+/));
      expect(commands.map((words) => words.join(' '))).toEqual(['agentd status', 'agentd logs', 'agentd stop']);
      const results = [];
      for (const [, ...args] of commands) results.push(await runCli(args, env));
      expect(results.map((result) => result.code)).toEqual([0, 0, 0]);
      expect(results[0]!.stdout).toContain(`is running (pid ${daemon.child.pid})`);
      expect(results[1]!.stdout).toContain('serving');
      expect(results[2]!.stdout).toBe(`stopped agentd (pid ${daemon.child.pid})\n`);
    } finally {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
      home.cleanup();
    }
  });
});
