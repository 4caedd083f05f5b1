import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { daemonBusyWith } from '../../../src/daemon/exit-when-idle.js';
import type { WireMessage } from '../../support/rpc-peer.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

/*
 * The work queue of one daemon on the SQLite store, and `cluster.concurrency`, over the
 * wire: a queued prompt answers before its turn runs, its turn runs as an interactive one
 * would (its events reach the session's followers, its messages are stored), and a daemon
 * with one slot runs one turn at a time, interactive and queued alike.
 */
describe('the in-process work queue and turn slots', () => {
  let replay: ReplayServer | undefined;
  let home: ReturnType<typeof makeHome> | undefined;
  let workspace: string | undefined;
  let daemon: InProcessDaemon | undefined;

  afterEach(async () => {
    await daemon?.close();
    await replay?.close();
    home?.cleanup();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  async function start(cluster?: { concurrency: number }): Promise<InProcessDaemon> {
    replay = await startReplayServer();
    const config = { model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, ...(cluster ? { cluster } : {}) };
    home = makeHome(config);
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    return daemon;
  }

  const text = (value: string) => [{ type: 'text' as const, text: value }];
  const event = (sessionId: string, type: string) => (m: WireMessage) => m.method === 'agentd/event' && m.params?.sessionId === sessionId && m.params?.event?.type === type;

  it('answers a queued prompt before its turn runs, then runs it for the session\'s followers and stores it', async () => {
    const { peer } = await start();
    replay!.enqueue({ hangBeforeHeaders: true });
    const { sessionId } = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const answer = await peer.call('session/prompt', { sessionId, prompt: text('Tidy the imports'), _meta: { agentd: { queue: true } } });
    // The model has not answered at all (it hangs before its headers): the request ended first.
    expect(answer).toEqual({ stopReason: 'end_turn', _meta: { agentd: { outcome: 'queued', jobId: expect.any(String), queue: 'in-process' } } });
    const jobId = (answer._meta as { agentd: { jobId: string } }).agentd.jobId;
    // The client that queued it follows the session it made: the job's turn has the job's id.
    const started = await peer.waitFor(event(sessionId, 'turn_start'));
    expect(started.params.event.turnId).toBe(jobId);
    expect((await daemon!.context()).sessions.get(sessionId)?.state).toBe('running');
    await peer.call('session/abort', { sessionId });
    const ended = await peer.waitFor(event(sessionId, 'turn_end'));
    expect(ended.params.event).toMatchObject({ turnId: jobId, stopReason: 'cancelled' });

    // The next queued prompt runs to its end and is stored like any turn.
    replay!.enqueue({ body: chatCompletionSse(['Imports tidied.']) });
    const second = await peer.call('session/prompt', { sessionId, prompt: text('Now for real'), _meta: { agentd: { queue: true } } });
    const secondId = (second._meta as { agentd: { jobId: string } }).agentd.jobId;
    await peer.waitFor((m) => event(sessionId, 'turn_end')(m) && m.params.event.turnId === secondId);
    const { sessions } = await daemon!.context();
    const turns = await sessions.store.listTurns(sessionId);
    expect(turns.map((turn) => [turn.id, turn.status])).toEqual([
      [jobId, 'cancelled'],
      [secondId, 'end_turn'],
    ]);
    const messages = await sessions.store.listMessages(sessionId);
    expect(messages.filter((m) => m.turnId === secondId).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('runs a session\'s queued prompts one after another, each its own turn, in the order queued', async () => {
    const { peer } = await start();
    const { sessionId } = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    replay!.enqueue({ body: chatCompletionSse(['one']) });
    replay!.enqueue({ body: chatCompletionSse(['two']) });
    replay!.enqueue({ body: chatCompletionSse(['three']) });
    const jobIds: string[] = [];
    for (const prompt of ['first', 'second', 'third']) {
      const answer = await peer.call('session/prompt', { sessionId, prompt: text(prompt), _meta: { agentd: { queue: true } } });
      jobIds.push((answer._meta as { agentd: { jobId: string } }).agentd.jobId);
    }
    await peer.waitFor((m) => event(sessionId, 'turn_end')(m) && m.params.event.turnId === jobIds[2]);
    const { sessions } = await daemon!.context();
    expect((await sessions.store.listTurns(sessionId)).map((turn) => [turn.id, turn.status])).toEqual(jobIds.map((id) => [id, 'end_turn']));
    // Each turn saw the one before it: the third request carries the first two exchanges.
    const users = (replay!.requests[2]!.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter((m) => m.role === 'user');
    expect(users.map((m) => JSON.stringify(m.content))).toEqual([expect.stringContaining('first'), expect.stringContaining('second'), expect.stringContaining('third')]);
  });

  it('queues a job given its id once, whether the first is still waiting or already running', async () => {
    const { peer } = await start({ concurrency: 1 });
    const { sessionId } = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const body = chatCompletionSse(['Working', ' on']);
    replay!.enqueue({ body, stallAfterBytes: body.indexOf('" on"') });
    const { work } = await daemon!.context();
    const job = { sessionId, prompt: text('once'), cwd: workspace!, jobId: '6f1d2c3b-0a9e-4b8c-8d7f-1e2a3b4c5d6e' };
    expect(await work.queuePrompt(job)).toEqual({ jobId: job.jobId });
    await expect.poll(() => replay!.requests.length).toBe(1);
    // Running now: queued again, it is not queued a second time.
    expect(await work.queuePrompt(job)).toEqual({ jobId: job.jobId });
    expect(await work.waiting()).toBe(0);
    await peer.call('session/abort', { sessionId });
    await expect.poll(() => work.held).toBe(0);
    const { sessions } = await daemon!.context();
    expect((await sessions.store.listTurns(sessionId)).map((turn) => turn.id)).toEqual([job.jobId]);
    expect(replay!.requests).toHaveLength(1);
  });

  it('with cluster.concurrency 1, a second session\'s prompt waits busy for the slot and runs once the first turn ends', async () => {
    const { peer } = await start({ concurrency: 1 });
    const first = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const second = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const body = chatCompletionSse(['Counting', ' on']);
    replay!.enqueue({ body, stallAfterBytes: body.indexOf('" on"') });
    replay!.enqueue({ body: chatCompletionSse(['Second answer.']) });
    const running = peer.request('session/prompt', { sessionId: first.sessionId, prompt: text('Count to two hundred') });
    await peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const waiting = peer.request('session/prompt', { sessionId: second.sessionId, prompt: text('Say something') });
    // Busy (a prompt without delivery would be refused) but nothing stored: it holds no slot.
    const { sessions } = await daemon!.context();
    await expect.poll(() => sessions.get(second.sessionId)?.state, { timeout: 15_000 }).toBe('running');
    expect(await sessions.store.listTurns(second.sessionId)).toEqual([]);
    expect(replay!.requests).toHaveLength(1);

    await peer.call('session/abort', { sessionId: first.sessionId });
    expect((await running).result).toEqual({ stopReason: 'cancelled' });
    expect((await waiting).result).toEqual({ stopReason: 'end_turn' });
    expect(replay!.requests).toHaveLength(2);
  });

  it('with cluster.concurrency 1, a queued job waits for the interactive turn, and a prompt cancelled while it waits stores nothing', async () => {
    const { peer } = await start({ concurrency: 1 });
    const first = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const second = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const third = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    // Closed: nobody follows it when its job runs.
    await peer.call('session/close', { sessionId: second.sessionId });
    const body = chatCompletionSse(['Counting', ' on']);
    replay!.enqueue({ body, stallAfterBytes: body.indexOf('" on"') });
    replay!.enqueue({ body: chatCompletionSse(['Queued answer.']) });
    const running = peer.request('session/prompt', { sessionId: first.sessionId, prompt: text('Count to two hundred') });
    await peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const queued = await peer.call('session/prompt', { sessionId: second.sessionId, prompt: text('Queued work'), _meta: { agentd: { queue: true } } });
    const jobId = (queued._meta as { agentd: { jobId: string } }).agentd.jobId;
    const context = await daemon!.context();
    const { sessions, work } = context;
    expect(await work.waiting()).toBe(1);
    // A daemon started on demand does not exit on it: the job lives in its memory only.
    expect(daemonBusyWith(0, context)).toBe('queued prompts wait');

    // An interactive prompt waiting for the slot is cancelled: it answers cancelled, nothing of it stored.
    const cancelled = peer.request('session/prompt', { sessionId: third.sessionId, prompt: text('Never mind') });
    await expect.poll(() => sessions.get(third.sessionId)?.state, { timeout: 15_000 }).toBe('running');
    peer.notify('session/cancel', { sessionId: third.sessionId });
    expect((await cancelled).result).toEqual({ stopReason: 'cancelled' });
    expect(await sessions.store.listTurns(third.sessionId)).toEqual([]);
    expect(await sessions.store.listMessages(third.sessionId)).toEqual([]);

    await peer.call('session/abort', { sessionId: first.sessionId });
    expect((await running).result).toEqual({ stopReason: 'cancelled' });
    await expect.poll(async () => (await sessions.store.listTurns(second.sessionId)).map((turn) => [turn.id, turn.status]), { timeout: 15_000 }).toEqual([[jobId, 'end_turn']]);
    expect(await work.waiting()).toBe(0);
    // Nobody follows the queued session: it was unloaded when its turn ended, and stays stored.
    expect(sessions.get(second.sessionId)).toBeUndefined();
  });

  it('runs a queued turn on when the client that queued it hangs up (an interactive turn would stop)', async () => {
    const daemon = await start();
    const body = chatCompletionSse(['Working', ' on']);
    replay!.enqueue({ body, stallAfterBytes: body.indexOf('" on"') });
    const { toDaemon, fromDaemon } = daemon.connectStreams();
    const { RpcPeer } = await import('../../support/rpc-peer.js');
    const queuing = new RpcPeer(fromDaemon, toDaemon);
    await queuing.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await queuing.call('session/new', { cwd: workspace!, mcpServers: [] });
    await queuing.call('session/prompt', { sessionId, prompt: text('Work on'), _meta: { agentd: { queue: true } } });
    // It follows the session it made, and the job's turn is streaming.
    await queuing.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const { clients } = await daemon.context();
    const before = clients.size;
    toDaemon.end();
    await expect.poll(() => clients.size, { timeout: 15_000 }).toBe(before - 1);
    // Nobody follows it now, and it still runs: no client sent its prompt.
    expect((await daemon.context()).sessions.get(sessionId)?.state).toBe('running');
    await daemon.peer.call('session/abort', { sessionId });
  });

  it('refuses a queued prompt it could never run, naming what is wrong', async () => {
    const { peer } = await start();
    const { sessionId } = await peer.call('session/new', { cwd: workspace!, mcpServers: [] });
    const both = await peer.requestUnchecked('session/prompt', { sessionId, prompt: text('x'), _meta: { agentd: { queue: true, delivery: 'followUp' } } });
    expect(both.error).toMatchObject({ code: -32602, message: expect.stringContaining('_meta.agentd.queue and _meta.agentd.delivery do not go together') });
    const unknown = await peer.requestUnchecked('session/prompt', { sessionId: 'no-such-session', prompt: text('x'), _meta: { agentd: { queue: true } } });
    expect(unknown.error).toMatchObject({ code: -32002 });
    const empty = await peer.requestUnchecked('session/prompt', { sessionId, prompt: [], _meta: { agentd: { queue: true } } });
    expect(empty.error).toMatchObject({ code: -32602, message: expect.stringContaining('prompt is empty') });
    const wrongType = await peer.requestUnchecked('session/prompt', { sessionId, prompt: text('x'), _meta: { agentd: { queue: 'yes' } } });
    expect(wrongType.error).toMatchObject({ code: -32602 });
    const { work } = await daemon!.context();
    expect(await work.waiting()).toBe(0);
  });
});
