import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { connectPeer, connectWhenListening, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { freePort } from '../support/free-port.js';
import { agentdMeta } from '../support/agentd-meta.js';

describe('agentd serve --socket and --listen', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemons: DaemonChild[];
  let socketPath: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    socketPath = join(home.home, 'run', 'agentd.sock');
    daemons = [];
  });

  afterEach(async () => {
    for (const d of daemons) {
      d.child.kill('SIGKILL');
      await d.exited;
    }
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  const start = (args: string[]): DaemonChild => {
    const d = spawnDaemon(args, daemonEnv(home.home));
    daemons.push(d);
    return d;
  };

  it('serves the default socket with mode 0600 to many clients, sharing live sessions', async () => {
    start(['serve', '--socket']);
    await until(() => existsSync(socketPath), 10_000, 'the socket');
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);

    const a = await connectWhenListening(socketPath);
    const b = await connectPeer(socketPath);
    const silent = await connectPeer(socketPath); // never reads its answers or sends anything
    await a.call('initialize', { protocolVersion: 1 });
    await b.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await a.call('session/new', { cwd: workspace, mcpServers: [] });

    replay.enqueue({ body: chatCompletionSse(['first ', 'part ', 'second ', 'part']), chunking: 'bytewise', delayMs: 3 });
    const prompt = a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await a.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const loaded = await b.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).state).toBe('running');
    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });

    expect(a.agentText(sessionId)).toBe('first part second part');
    // b saw the user's prompt in the replay and the rest of the answer live.
    const bUpdates = b.updates(sessionId);
    expect(bUpdates[0]).toMatchObject({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'go' } });
    expect(b.agentText(sessionId).length).toBeGreaterThan(0);
    expect('first part second part'.endsWith(b.agentText(sessionId))).toBe(true);
    silent.close();
  });

  it('stops on SIGTERM while a client keeps its socket open and a turn streams, keeping the partial answer', async () => {
    const daemon = start(['serve', '--socket']);
    const client = await connectWhenListening(socketPath);
    await client.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await client.call('session/new', { cwd: workspace, mcpServers: [] });
    // The vendor sends the first words, then holds the stream open.
    const body = chatCompletionSse(['partial ', 'answer ', 'never finished']);
    replay.enqueue({ body, stallAfterBytes: body.indexOf('never') - 40 });
    void client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] }).catch(() => undefined);
    await client.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');

    daemon.child.kill('SIGTERM');
    // Bounded by the wait below: before, the daemon ran on until this client hung up.
    const exit = await Promise.race([daemon.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 10_000))]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(existsSync(socketPath)).toBe(false);

    const again = start(['serve', '--socket']);
    const reader = await connectWhenListening(socketPath);
    await reader.call('initialize', { protocolVersion: 1 });
    await reader.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(reader.agentText(sessionId)).toContain('partial ');
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('replaces a stale socket file and refuses a live one', async () => {
    // A socket file left by a crashed process: it listened, then died by SIGKILL.
    mkdirSync(join(home.home, 'run'), { recursive: true });
    const crashed = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`]);
    await once(crashed.stdout, 'data');
    crashed.kill('SIGKILL');
    await once(crashed, 'exit');
    expect(existsSync(socketPath)).toBe(true);

    start(['serve', '--socket', socketPath]);
    await until(async () => {
      try {
        const p = await connectPeer(socketPath);
        p.close();
        return true;
      } catch {
        return false;
      }
    }, 10_000, 'the daemon to replace the stale socket');

    const second = start(['serve', '--socket', socketPath]);
    const { code } = await second.exited;
    expect(code).not.toBe(0);
    // The data directory's lock refuses it first, naming the owner.
    expect(second.stderr()).toMatch(/another agentd \(pid \d+.*owns the data directory/);
  });

  it('requires the token file contents in initialize on TCP', async () => {
    const port = await freePort();
    start(['serve', '--listen', `127.0.0.1:${port}`]);
    const tokenFile = join(home.home, 'state', 'token');
    await until(() => existsSync(tokenFile), 10_000, 'the token file');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    await until(async () => {
      try {
        (await connectPeer({ host: '127.0.0.1', port })).close();
        return true;
      } catch {
        return false;
      }
    });

    const wrong = await connectPeer({ host: '127.0.0.1', port });
    const refused = await wrong.request('initialize', { protocolVersion: 1, _meta: { agentd: { token: 'x'.repeat(64) } } });
    expect(refused.error!.code).toBe(-32012);
    await wrong.closed;

    const rude = await connectPeer({ host: '127.0.0.1', port });
    const notFirst = await rude.request('session/list', {});
    expect(notFirst.error!.code).toBe(-32012);
    expect(notFirst.error!.message).toMatch(/first message on a TCP connection must be initialize/);
    await rude.closed;

    const good = await connectPeer({ host: '127.0.0.1', port });
    const init = await good.call('initialize', { protocolVersion: 1, _meta: { agentd: { token } } });
    expect(init.protocolVersion).toBe(1);
    expect((await good.call('session/list', {})).sessions).toEqual([]);
    good.close();
  });

  it('starts the shared daemon from agentd acp and reaches it from a second bridge', async () => {
    writeFileSync(join(home.home, 'marker'), '');
    const bridge1 = start(['acp']);
    await bridge1.peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await bridge1.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const bridge2 = start(['acp']);
    await bridge2.peer.call('initialize', { protocolVersion: 1 });
    const list = await bridge2.peer.call('session/list', { cwd: workspace });
    expect(list.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([sessionId]);
    // Both bridges talk to the one daemon on the default socket.
    expect(existsSync(socketPath)).toBe(true);
    const daemonPid = await findDaemonPid(socketPath);
    if (daemonPid) process.kill(daemonPid, 'SIGKILL');
  });
});

/** The pid of `agentd serve --socket PATH` from /proc, to clean up the detached daemon. */
async function findDaemonPid(socketPath: string): Promise<number | undefined> {
  const { readdirSync } = await import('node:fs');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline.includes('serve') && cmdline.includes(socketPath)) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}
