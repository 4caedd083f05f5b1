import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonSessionRouting } from '../../src/daemon/cluster/daemon-session-routing.js';
import type { BuiltDaemonContext } from '../../src/daemon/create-daemon-context.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import type { RpcPeer } from '../support/rpc-peer.js';

/** The texts of every message a model request carried, in order. */
function requestTexts(body: unknown): string[] {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return messages
    .filter((message) => message.role !== 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)));
}

/** Two daemons (each its own home and data directory) on one PostgreSQL database and one loopback vendor. */
describe.skipIf(!requireProgram(POSTGRES))('two daemons sharing one PostgreSQL store', () => {
  let replay: ReplayServer;
  let url: string;
  let workspace: string;
  const homes: Array<ReturnType<typeof makeHome>> = [];
  const daemons: InProcessDaemon[] = [];

  beforeEach(async () => {
    replay = await startReplayServer();
    url = await createTestDatabase();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await Promise.all(daemons.splice(0).map((daemon) => daemon.close()));
    await replay.close();
    for (const home of homes.splice(0)) home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function startDaemon(cluster: { leaseMs?: number } = {}): Promise<{ daemon: InProcessDaemon; peer: RpcPeer; context: BuiltDaemonContext }> {
    const home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      store: { type: 'postgres', url },
      cluster,
    });
    homes.push(home);
    const daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    daemons.push(daemon);
    // Asks for agentd's own events, so the notice of a waiting prompt reaches the client.
    await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    // The daemon layer's own view of what it built: its cluster membership.
    const context = (await daemon.context()) as BuiltDaemonContext;
    return { daemon, peer: daemon.peer, context };
  }

  async function storedTurns(sessionId: string): Promise<Array<{ status: string; error: string | null }>> {
    const store = await openPostgresStore(url);
    try {
      return (await store.listTurns(sessionId)).map(({ status, error }) => ({ status, error }));
    } finally {
      await store.close();
    }
  }

  const prompt = (peer: RpcPeer, sessionId: string, text: string) => peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, 60_000);
  const told = (peer: RpcPeer, text: string) => peer.waitFor((m) => JSON.stringify(m).includes(text), 30_000, text);

  it('sends a prompt on the second daemon to the first, which runs the session: busy as on one daemon; once idle it runs on the second', async () => {
    const one = await startDaemon();
    const two = await startDaemon();
    const { sessionId } = await one.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    // The first daemon's answer starts and then hangs until its turn is cancelled.
    replay.enqueue({ body: chatCompletionSse(['Still thinking']), stallAfterBytes: 20 });
    const first = prompt(one.peer, sessionId, 'first question');
    await expect.poll(() => replay.requests.length).toBe(1);
    expect(await two.context.cluster.leases.heldElsewhere(sessionId)).toBe(one.context.cluster.daemonId);

    await two.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    // Reached the owner, which answers as one daemon does for a running session; nothing ran beside its turn.
    const busy = await prompt(two.peer, sessionId, 'second question');
    expect(busy.error).toMatchObject({ code: -32010 });
    expect(replay.requests).toHaveLength(1);

    one.peer.notify('session/cancel', { sessionId });
    expect((await first).result).toEqual(expect.objectContaining({ stopReason: 'cancelled' }));
    // Idle again: nobody holds the session, and the next prompt runs where it is sent.
    await expect.poll(() => two.context.cluster.leases.heldElsewhere(sessionId)).toBeUndefined();
    replay.enqueue({ body: chatCompletionSse(['Second answer.']) });
    expect((await prompt(two.peer, sessionId, 'second question')).result).toEqual(expect.objectContaining({ stopReason: 'end_turn' }));
    expect(replay.requests).toHaveLength(2);
    // The second daemon's request carries the first daemon's prompt: it read the history again.
    expect(requestTexts(replay.requests[1]!.body).join('\n')).toContain('first question');
    expect((await storedTurns(sessionId)).map((turn) => turn.status)).toEqual(['cancelled', 'end_turn']);
    await expect.poll(() => one.context.cluster.leases.heldElsewhere(sessionId)).toBeUndefined();
  });

  it('gives the model the whole conversation when the session moves between daemons (1, then 2, then 1)', async () => {
    const one = await startDaemon();
    const two = await startDaemon();
    const { sessionId } = await one.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Answer one.']) });
    expect((await prompt(one.peer, sessionId, 'question one')).result).toMatchObject({ stopReason: 'end_turn' });
    await two.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Answer two.']) });
    expect((await prompt(two.peer, sessionId, 'question two')).result).toMatchObject({ stopReason: 'end_turn' });
    // The first daemon still has the session live, with the history it last saw.
    replay.enqueue({ body: chatCompletionSse(['Answer three.']) });
    expect((await prompt(one.peer, sessionId, 'question three')).result).toMatchObject({ stopReason: 'end_turn' });

    const sent = replay.requests.map((request) => requestTexts(request.body).join('\n'));
    expect(sent).toHaveLength(3);
    const order = ['question one', 'Answer one.', 'question two', 'Answer two.', 'question three'];
    sent.forEach((text, index) => {
      const expected = order.slice(0, 2 * index + 1);
      const positions = expected.map((piece) => text.indexOf(piece));
      expect(positions.every((position) => position >= 0), `request ${index + 1} carries ${expected.join(', ')}`).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    });
    expect((await storedTurns(sessionId)).map((turn) => turn.status)).toEqual(['end_turn', 'end_turn', 'end_turn']);
  });

  it('runs with the model another daemon chose for the session since this daemon last ran it', async () => {
    const one = await startDaemon();
    const two = await startDaemon();
    const { sessionId } = await one.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['First.']) });
    await prompt(one.peer, sessionId, 'question one');
    await two.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    await two.peer.call('session/set_config_option', { sessionId, configId: 'model', value: 'local/second-model' });
    replay.enqueue({ body: chatCompletionSse(['Second.']) });
    expect((await prompt(one.peer, sessionId, 'question two')).result).toMatchObject({ stopReason: 'end_turn' });
    expect(replay.requests.map((request) => (request.body as { model: string }).model)).toEqual(['e2e-model', 'second-model']);
  });

  it("leaves a live daemon's running turn alone when another daemon starts on the same database", async () => {
    const one = await startDaemon();
    const { sessionId } = await one.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Still thinking']), stallAfterBytes: 20 });
    const first = prompt(one.peer, sessionId, 'long question');
    await expect.poll(() => replay.requests.length).toBe(1);

    const two = await startDaemon();
    expect(two.daemon.stderr()).not.toContain('interrupted by an earlier stop');
    expect((await storedTurns(sessionId)).map((turn) => turn.status)).toEqual(['running']);
    const daemons = await two.context.sessions.store.cluster.listDaemons();
    expect(daemons.map((daemon) => [daemon.id, daemon.alive, daemon.sessionsOwned])).toEqual([
      [one.context.cluster.daemonId, true, [sessionId]],
      [two.context.cluster.daemonId, true, []],
    ]);
    one.peer.notify('session/cancel', { sessionId });
    expect((await first).result).toMatchObject({ stopReason: 'cancelled' });
  });

  it("runs the waiting prompt once a killed daemon's lease expires, and marks that daemon's turn interrupted", async () => {
    const one = await startDaemon({ leaseMs: 1000 });
    const two = await startDaemon();
    const { sessionId } = await one.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Never finished']), stallAfterBytes: 20 });
    void prompt(one.peer, sessionId, 'question before the crash');
    await expect.poll(() => replay.requests.length).toBe(1);

    // "Killed": no more heartbeats or renewals, nothing taken from its queues, its connections
    // gone, its lease left behind.
    await one.context.cluster.keeper.stop();
    (one.context.routing as DaemonSessionRouting).stopTaking();
    await one.context.sessions.store.close();

    await two.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Taken over.']) });
    const answer = await prompt(two.peer, sessionId, 'question after the crash');
    expect(answer.result).toMatchObject({ stopReason: 'end_turn' });
    expect(replay.requests).toHaveLength(2);
    expect(requestTexts(replay.requests[1]!.body).join('\n')).toContain('question before the crash');
    const turns = await storedTurns(sessionId);
    expect(turns.map((turn) => turn.status)).toEqual(['interrupted', 'end_turn']);
    expect(turns[0]!.error).toContain(`daemon ${one.context.cluster.daemonId} stopped renewing its lease`);
    const daemons = await two.context.sessions.store.cluster.listDaemons();
    expect(daemons.find((daemon) => daemon.id === one.context.cluster.daemonId)?.alive).toBe(false);
  });

  it('stops the running turn of a daemon that lost its lease, with an error naming the daemon that took the session', async () => {
    const one = await startDaemon({ leaseMs: 1000 });
    const two = await startDaemon();
    const { sessionId } = await one.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Stalled']), stallAfterBytes: 20 });
    const first = prompt(one.peer, sessionId, 'question on a stalled daemon');
    await expect.poll(() => replay.requests.length).toBe(1);

    // The first daemon stalls (its renewals stop, its process goes on), and once its lease has
    // expired the second takes the session over (before that, a prompt would reach the first).
    await one.context.cluster.keeper.stop();
    await expect.poll(() => two.context.cluster.leases.heldElsewhere(sessionId), { timeout: 10_000 }).toBeUndefined();
    await two.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Taken over.']) });
    expect((await prompt(two.peer, sessionId, 'question on the new owner')).result).toMatchObject({ stopReason: 'end_turn' });

    // Its next renewal tells the first daemon it lost the session: the turn stops, nothing more of it is stored.
    await one.context.cluster.keeper.tick();
    const answer = await first;
    // The new owner's turn ended, so the session is idle again and the error says so.
    expect(answer.error?.message).toMatch(/^session "[^"]+" was taken over by another daemon \(and is idle now\); this daemon \(dmn_[0-9a-f]{16}\) lost its lease/);
    expect(answer.error?.data).toEqual({ kind: 'session_fenced' });
    await told(one.peer, 'this daemon lost its lease on the session');
    const turns = await storedTurns(sessionId);
    expect(turns.map((turn) => turn.status)).toEqual(['interrupted', 'end_turn']);
  });
});
