import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { agentdMeta } from '../../support/agentd-meta.js';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startDaemonsOnOneDatabase } from '../../support/daemons-on-one-database.js';
import { startInProcessDaemon } from '../../support/in-process-daemon.js';
import { POSTGRES } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';
import type { RpcPeer, WireMessage } from '../../support/rpc-peer.js';
import { bytesThrough, sseFrameEnds } from '../../support/sse-frame-ends.js';

/**
 * What a client was told about a session, in order: its updates and agentd events. The
 * news of a permission question's answer is told by each daemon when the question settles
 * there, not in the session's stream: left out.
 */
function toldAbout(peer: RpcPeer, sessionId: string, from = 0): WireMessage[] {
  return peer.received
    .slice(from)
    .filter((m) => (m.method === 'session/update' || m.method === 'agentd/event') && m.params?.sessionId === sessionId)
    .filter((m) => m.params.event?.type !== 'permission_resolved')
    .map((m) => ({ method: m.method, params: m.params }));
}

const turnEnded = (peer: RpcPeer, turns: number): Promise<unknown> => {
  let seen = 0;
  return peer.waitFor((m) => m.method === 'agentd/event' && m.params.event.type === 'turn_end' && ++seen === turns, 15_000, `turn_end #${turns}`);
};

async function initialize(peer: RpcPeer): Promise<void> {
  await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {}, _meta: { agentd: { events: true } } });
}

function allowEveryWrite(peer: RpcPeer, held?: Promise<void>): void {
  peer.onRequest('session/request_permission', async (params: { options: Array<{ optionId: string; kind: string }> }) => {
    await held;
    return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === 'allow_once')!.optionId } };
  });
}

describe.skipIf(!requireProgram(POSTGRES))('live updates across daemons on one PostgreSQL', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a follower on another daemon is told what a follower on the turn’s daemon is, in the same order, both ways', async () => {
    const { replay, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const w = one.connect();
    const y = two.peer;
    for (const peer of [x, w, y]) await initialize(peer);
    allowEveryWrite(x);
    const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    await w.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'note.txt', content: 'hi\n' } }]) });
    const answer = chatCompletionSse(['Written', ' to', ' note.txt', '.']);
    replay.enqueue({ body: answer, chunking: { splitAt: sseFrameEnds(answer) } });
    expect(await x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a note' }] })).toEqual({ stopReason: 'end_turn' });
    await turnEnded(w, 1);
    await turnEnded(y, 1);
    expect(y.agentText(sessionId)).toBe('Written to note.txt.');
    expect(toldAbout(y, sessionId)).toEqual(toldAbout(w, sessionId));

    // The turn's end refreshed daemon two's copy: a prompt there continues the whole conversation,
    // and the clients of daemon one follow it in turn.
    replay.enqueue({ body: chatCompletionSse(['Second', ' answer.']) });
    const before = toldAbout(w, sessionId).length;
    expect(await y.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and now?' }] })).toEqual({ stopReason: 'end_turn' });
    const history = (replay.requests.at(-1)!.body as { messages: Array<{ role: string }> }).messages.map((m) => m.role);
    expect(history).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    await turnEnded(x, 2);
    await turnEnded(w, 2);
    expect(w.agentText(sessionId)).toBe('Written to note.txt.Second answer.');
    const onTwo = toldAbout(y, sessionId).slice(before);
    // Y sent the prompt: it is not echoed to Y, and is to W.
    expect(toldAbout(w, sessionId).slice(before).filter((m) => m.params.update?.sessionUpdate !== 'user_message_chunk')).toEqual(onTwo);
    expect(toldAbout(w, sessionId).slice(before).filter((m) => m.params.update?.sessionUpdate === 'user_message_chunk')).toHaveLength(1);
  });

  it('a client joining mid-turn on another daemon gets the history, the turn so far and the live rest, as a joiner on the turn’s daemon does', async () => {
    const { replay, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const v = one.connect();
    const z = two.peer;
    const y = two.connect();
    for (const peer of [x, v, z, y]) await initialize(peer);
    const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['First', ' answer.']) });
    await x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first' }] });
    // Z follows on daemon two from before the second turn: once it has the streamed text, so has the table.
    await z.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    const body = chatCompletionSse(['Second', ' answer', ' streams', ' and', ' never', ' ends']);
    replay.enqueue({ body, chunking: { splitAt: sseFrameEnds(body) }, stallAfterBytes: bytesThrough(body, '" streams"') });
    const turn = x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second' }] });
    await z.waitFor((m) => m.method === 'session/update' && m.params.update.content?.text === ' streams');

    const fromV = v.received.length;
    const fromY = y.received.length;
    const onOne = await v.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const onTwo = await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(onTwo).state).toBe('running');
    expect(agentdMeta(onTwo).runningTurnId).toBe(agentdMeta(onOne).runningTurnId);

    x.notify('session/cancel', { sessionId });
    expect(await turn).toEqual({ stopReason: 'cancelled' });
    await turnEnded(v, 1);
    await turnEnded(y, 1);
    expect(y.agentText(sessionId)).toBe('First answer.Second answer streams');
    expect(toldAbout(y, sessionId, fromY)).toEqual(toldAbout(v, sessionId, fromV));
  });

  it('tells the followers on another daemon that a turn ended when its session is closed mid-turn', async () => {
    const { replay, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const y = two.peer;
    for (const peer of [x, y]) await initialize(peer);
    const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const body = chatCompletionSse(['Cut', ' short', ' here']);
    replay.enqueue({ body, chunking: { splitAt: sseFrameEnds(body) }, stallAfterBytes: bytesThrough(body, '" short"') });
    const turn = x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await y.waitFor((m) => m.method === 'session/update' && m.params.update.content?.text === ' short');

    await x.call('session/close', { sessionId });
    expect(await turn).toEqual({ stopReason: 'cancelled' });
    const ended = (await turnEnded(y, 1)) as WireMessage;
    expect(ended.params.event.stopReason).toBe('cancelled');
  });

  it('loses nothing when the LISTEN connections drop mid-turn: they LISTEN again and read what was missed', async () => {
    const { replay, url, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const w = one.connect();
    const y = two.peer;
    for (const peer of [x, w, y]) await initialize(peer);
    let release!: () => void;
    allowEveryWrite(x, new Promise<void>((resolve) => (release = resolve)));
    const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    await w.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'note.txt', content: 'hi\n' } }]) });
    const answer = chatCompletionSse(['Written', ' after', ' the', ' drop', '.']);
    replay.enqueue({ body: answer, chunking: { splitAt: sseFrameEnds(answer) } });
    const turn = x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a note' }] });
    await x.waitFor((m) => m.method === 'session/request_permission');
    await y.waitFor((m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'tool_call');

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query("SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name LIKE 'agentd-updates-listener %'");
      expect(rows.map((row) => row.done)).toEqual([true, true]);
    } finally {
      await admin.end();
    }
    // The rest of the turn is appended while the daemons connect again.
    release();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    await turnEnded(w, 1);
    await turnEnded(y, 1);
    expect(y.agentText(sessionId)).toBe('Written after the drop.');
    expect(toldAbout(y, sessionId)).toEqual(toldAbout(w, sessionId));
    expect(two.stderr()).toContain('session updates: lost the LISTEN connection');
  });
});

describe('on the SQLite store (one daemon)', () => {
  it('starts no updates table, listener or relay', async () => {
    const home = makeHome({});
    const daemon = startInProcessDaemon(daemonEnv(home.home), home.home);
    try {
      expect((await daemon.context()).crossDaemonUpdates).toBeUndefined();
    } finally {
      await daemon.close();
      home.cleanup();
    }
  });
});
