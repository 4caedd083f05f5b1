import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { connectPeer, connectWhenListening, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';
import { freePort } from '../support/free-port.js';
import { agentdMeta } from '../support/agentd-meta.js';
import { tryLockDataDir } from '../../src/store/data-dir-lock.js';

/** The turns of the store as they are on disk, read beside the daemon (WAL allows it). */
function turnStatuses(home: string): string[] {
  const db = new Database(join(home, 'data', 'agentd.db'), { readonly: true });
  try {
    return (db.prepare('SELECT status FROM turns ORDER BY started_at, rowid').all() as Array<{ status: string }>).map((r) => r.status);
  } finally {
    db.close();
  }
}

describe('one daemon owns a data directory', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let socketPath: string;
  const daemons: DaemonChild[] = [];

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    socketPath = join(home.home, 'run', 'agentd.sock');
  });

  afterEach(async () => {
    for (const d of daemons.splice(0)) {
      d.child.kill('SIGKILL');
      await d.exited;
    }
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  const start = (args: string[], env = daemonEnv(home.home)): DaemonChild => {
    const d = spawnDaemon(args, env);
    daemons.push(d);
    return d;
  };

  /** Daemon 1 serves the socket and has a turn stalled mid-answer. */
  async function ownerWithRunningTurn(): Promise<{ owner: DaemonChild; peer: RpcPeer; sessionId: string; prompt: Promise<unknown> }> {
    const owner = start(['serve', '--socket']);
    const peer = await connectWhenListening(socketPath);
    await peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const partial = chatCompletionSse(['Working ', 'on it', ' and more']);
    replay.enqueue({ body: partial, stallAfterBytes: partial.indexOf(' and more') - 20 });
    const prompt = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'long task' }] });
    // Pieces that arrive in one read go out as one chunk: 'Working on it' ends with the second.
    await peer.waitFor((m) => m.params?.update?.content?.text?.endsWith('on it') === true);
    return { owner, peer, sessionId, prompt };
  }

  it('[F9 store-ownership] agentd run beside a running turn goes through the owner and leaves the turn running', async () => {
    const { peer, sessionId, prompt } = await ownerWithRunningTurn();
    replay.enqueue({ body: chatCompletionSse(['through ', 'the owner']) });
    const run = await runCli(['run', '--cwd', workspace, 'quick question'], daemonEnv(home.home));
    expect(run.stdout).toBe('through the owner\n');
    expect(run.code).toBe(0);
    // Going through the owner is the normal path: nothing about it is printed.
    expect(run.stderr).not.toContain('owns the data directory');
    // The run's session lives in daemon 1: it created it there, and daemon 1 lists it.
    const listed = (await peer.call('session/list', {})).sessions as Array<{ sessionId: string }>;
    expect(listed).toHaveLength(2);
    expect(turnStatuses(home.home)).toEqual(['running', 'end_turn']);

    // Daemon 1's turn was never marked interrupted: it ends normally when cancelled.
    peer.notify('session/cancel', { sessionId });
    expect(((await prompt) as { result: unknown }).result).toEqual({ stopReason: 'cancelled' });
    expect(turnStatuses(home.home)).toEqual(['cancelled', 'end_turn']);
  });

  it('[F9 store-ownership] agentd run --json through the owner prints the events and the result', async () => {
    await ownerWithRunningTurn();
    replay.enqueue({ body: chatCompletionSse(['json ', 'lines']) });
    const run = await runCli(['run', '--json', '--cwd', workspace, 'q'], daemonEnv(home.home));
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const updates = lines.filter((l) => l.method === 'session/update');
    expect(updates.filter((l) => l.params.update.sessionUpdate === 'agent_message_chunk').map((l) => l.params.update.content.text).join('')).toBe('json lines');
    expect(lines.at(-1)).toMatchObject({ result: { stopReason: 'end_turn' } });
    expect(new Set([...updates.map((l) => l.params.sessionId), lines.at(-1).result.sessionId]).size).toBe(1);
  });

  it('[F9 store-ownership] a second serve --socket on another path refuses, naming the owner pid', async () => {
    const { owner } = await ownerWithRunningTurn();
    const otherSocket = join(home.home, 'run', 'second.sock');
    const second = start(['serve', '--socket', otherSocket]);
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.stderr()).toContain(`another agentd (pid ${owner.child.pid}`);
    expect(second.stderr()).toContain(`agentd acp --socket ${socketPath}`);
    expect(existsSync(otherSocket)).toBe(false);
    expect(turnStatuses(home.home)).toEqual(['running']);
  });

  it('[F9 store-ownership] a second serve --listen (TCP) refuses too', async () => {
    const { owner } = await ownerWithRunningTurn();
    const second = start(['serve', '--listen', `127.0.0.1:${await freePort()}`]);
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.stderr()).toContain(`pid ${owner.child.pid}`);
    expect(turnStatuses(home.home)).toEqual(['running']);
  });

  it('[F9 store-ownership] a second agentd on stdio is bridged to the owner', async () => {
    const { sessionId } = await ownerWithRunningTurn();
    const second = start([]);
    const init = await second.peer.call('initialize', { protocolVersion: 1 });
    // Only the owner knows its socket: the answer comes from daemon 1.
    expect(agentdMeta(init).socket).toBe(socketPath);
    const loaded = await second.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).state).toBe('running');
    expect(agentdMeta(loaded).interruptedTurns).toEqual([]);
    expect(turnStatuses(home.home)).toEqual(['running']);
  });

  it('[F9 store-ownership] a stdio agentd that finds no live owner in the note answers initialize, then exits naming the owner that holds the lock', async () => {
    // An owner between taking the lock and writing its note: the lock held, no note.
    const held = tryLockDataDir(join(home.home, 'data'), { probe: true });
    if (held.kind !== 'acquired') throw new Error('the test could not take the lock');
    try {
      const second = start([]);
      // The first answer does not wait for the lock; the daemon proper, built right after, takes it and cannot.
      expect((await second.peer.call('initialize', { protocolVersion: 1 })).protocolVersion).toBe(1);
      const { code } = await second.exited;
      expect(code).toBe(1);
      expect(second.stderr()).toContain(`cannot start: another agentd owns the data directory ${join(home.home, 'data')}`);
      expect(existsSync(join(home.home, 'data', 'agentd.db'))).toBe(false);
    } finally {
      held.lock.release();
    }
  });

  it('[F9 store-ownership] the same data directory through another path spelling (XDG symlink) is still owned', async () => {
    const { owner } = await ownerWithRunningTurn();
    // XDG_DATA_HOME/agentd is a symlink to the owner's data directory: one directory, two names.
    const xdg = mkdtempSync(join(tmpdir(), 'agentd-xdg-'));
    try {
      symlinkSync(join(home.home, 'data'), join(xdg, 'agentd'));
      const env = daemonEnv(home.home);
      delete env.AGENTD_HOME;
      Object.assign(env, { XDG_DATA_HOME: xdg, XDG_CONFIG_HOME: join(home.home, 'cfg-none'), XDG_STATE_HOME: join(xdg, 'state'), XDG_RUNTIME_DIR: join(xdg, 'run') });
      const second = start(['serve', '--socket'], env);
      const { code } = await second.exited;
      expect(code).toBe(1);
      expect(second.stderr()).toContain(`pid ${owner.child.pid}`);
      expect(turnStatuses(home.home)).toEqual(['running']);
    } finally {
      rmSync(xdg, { recursive: true, force: true });
    }
  });

  it('[F9 store-ownership] agentd sessions and agentd doctor work while a daemon owns the directory', async () => {
    const { owner, sessionId } = await ownerWithRunningTurn();
    const sessions = await runCli(['sessions', '--json'], daemonEnv(home.home));
    expect(sessions.code).toBe(0);
    expect(JSON.parse(sessions.stdout.trim()).id).toBe(sessionId);
    const doctor = await runCli(['doctor', '--json'], daemonEnv(home.home));
    const checks = JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> };
    expect(checks.checks.find((c) => c.id === 'store')?.status).toBe('ok');
    expect(checks.checks.find((c) => c.id === 'daemon')?.status).toBe('ok');
    expect(checks.checks.find((c) => c.id === 'owner')).toMatchObject({ status: 'ok', detail: expect.stringContaining(`pid ${owner.child.pid}`) });
    expect(turnStatuses(home.home)).toEqual(['running']);
  });

  it('[F9 store-ownership] with a stdio-only owner, run and serve stop with its pid and how to connect', async () => {
    const owner = start(['serve']);
    await owner.peer.call('initialize', { protocolVersion: 1 });
    await owner.peer.call('session/list', {}); // builds the daemon, which holds the lock from the start
    const run = await runCli(['run', '--cwd', workspace, 'hi'], daemonEnv(home.home));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`pid ${owner.child.pid}`);
    expect(run.stderr).toContain('serving one client on stdio');
    expect(run.stderr).toContain('agentd serve --socket');
    const stdio = start([]);
    const { code } = await stdio.exited;
    expect(code).toBe(1);
    expect(stdio.stderr()).toContain(`kill ${owner.child.pid}`);
    // agentd acp neither starts a second daemon nor bridges to nothing.
    const acp = await runCli(['acp'], daemonEnv(home.home));
    expect(acp.code).toBe(1);
    expect(acp.stderr).toContain(`pid ${owner.child.pid}`);
    expect(existsSync(socketPath)).toBe(false);
    const doctor = JSON.parse((await runCli(['doctor', '--json'], daemonEnv(home.home))).stdout) as { checks: Array<{ id: string; status: string; fix?: string }> };
    expect(doctor.checks.find((c) => c.id === 'owner')).toMatchObject({ status: 'warn', fix: expect.stringContaining(`stop pid ${owner.child.pid}`) });
    // Nothing reached the model: doctor's only request lists the provider's models (GET, no tokens).
    expect(replay.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('[F9 store-ownership] after the owner is SIGKILLed the next daemon takes the lock and recovers its turn', async () => {
    const { owner, sessionId } = await ownerWithRunningTurn();
    owner.child.kill('SIGKILL');
    await owner.exited;
    const next = start(['serve', '--socket']);
    await until(async () => {
      try {
        (await connectPeer(socketPath)).close();
        return true;
      } catch {
        return false;
      }
    }, 10_000, 'the next daemon');
    const peer = await connectPeer(socketPath);
    await peer.call('initialize', { protocolVersion: 1 });
    const loaded = await peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).interruptedTurns).toHaveLength(1);
    expect(turnStatuses(home.home)).toEqual(['interrupted']);
    // And it owns the directory now: a further serve names the new pid.
    const third = start(['serve', '--listen', `127.0.0.1:${await freePort()}`]);
    await third.exited;
    expect(third.stderr()).toContain(`pid ${next.child.pid}`);
  });

  it('[F9 store-ownership] agentd run answers the owner\'s permission questions per --permission-mode', async () => {
    await ownerWithRunningTurn();
    const write = { id: 'call_w', name: 'write', arguments: { path: 'out.txt', content: 'done' } };
    replay.enqueue({ body: chatToolCallSse([write]) });
    replay.enqueue({ body: chatCompletionSse(['refused']) });
    const denied = await runCli(['run', '--cwd', workspace, 'write it'], daemonEnv(home.home));
    expect(denied.code).toBe(0);
    expect(JSON.stringify(replay.requests.at(-1)!.body)).toMatch(/no client can be asked/);
    expect(existsSync(join(workspace, 'out.txt'))).toBe(false);

    replay.enqueue({ body: chatToolCallSse([write]) });
    replay.enqueue({ body: chatCompletionSse(['written']) });
    const allowed = await runCli(['run', '--cwd', workspace, '--permission-mode', 'acceptEdits', 'write it'], daemonEnv(home.home));
    expect(allowed.stdout).toBe('written\n');
    expect(existsSync(join(workspace, 'out.txt'))).toBe(true);

    // acceptEdits does not reach outside the run's cwd.
    mkdirSync(join(workspace, 'inner'));
    const outside = { id: 'call_o', name: 'write', arguments: { path: join(workspace, 'escaped.txt'), content: 'x' } };
    replay.enqueue({ body: chatToolCallSse([outside]) });
    replay.enqueue({ body: chatCompletionSse(['no']) });
    const escaped = await runCli(['run', '--cwd', join(workspace, 'inner'), '--permission-mode', 'acceptEdits', 'write outside'], daemonEnv(home.home));
    expect(escaped.code).toBe(0);
    expect(existsSync(join(workspace, 'escaped.txt'))).toBe(false);
  });
});
