import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { startDaemonsOnOneDatabase } from '../../support/daemons-on-one-database.js';
import { POSTGRES } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';
import type { RpcPeer, WireMessage } from '../../support/rpc-peer.js';

async function initialize(peer: RpcPeer): Promise<void> {
  await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {}, _meta: { agentd: { events: true } } });
}

/** The current value of one of the session's config options, as a `config_option_update` shows it. */
function optionValue(message: WireMessage, id: string): unknown {
  return (message.params.update.configOptions as Array<{ id: string; currentValue: unknown }>).find((option) => option.id === id)?.currentValue;
}

const configShows = (peer: RpcPeer, sessionId: string, id: string, value: string): Promise<WireMessage> =>
  peer.waitFor(
    (m) => m.method === 'session/update' && m.params.sessionId === sessionId && m.params.update.sessionUpdate === 'config_option_update' && optionValue(m, id) === value,
    15_000,
    `config_option_update with ${id} = ${value}`,
  );

const longText = (i: number): string => `note ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(25)}`;

/** What a client was told about a session from message `from` on: its updates and agentd events. */
function toldAbout(peer: RpcPeer, sessionId: string, from: number): WireMessage[] {
  return peer.received
    .slice(from)
    .filter((m) => (m.method === 'session/update' || m.method === 'agentd/event') && m.params?.sessionId === sessionId)
    .map((m) => ({ method: m.method, params: m.params }));
}

describe.skipIf(!requireProgram(POSTGRES))('what a session shows outside a turn, across daemons on one PostgreSQL', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a mode set on one daemon is shown at once to a follower on another, whose copy, later loads and prompts have it', async () => {
    const { replay, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const y = two.peer;
    for (const peer of [x, y]) await initialize(peer);
    const created = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    const { sessionId } = created;
    expect(created.modes?.currentModeId).toBe('build');
    await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    // No turn runs: the change reaches the follower on daemon two by itself.
    await x.call('session/set_mode', { sessionId, modeId: 'plan' });
    const told = await y.waitFor(
      (m) => m.method === 'session/update' && m.params.sessionId === sessionId && m.params.update.sessionUpdate === 'current_mode_update',
      15_000,
      'current_mode_update on daemon two',
    );
    expect(told.params.update.currentModeId).toBe('plan');
    // Daemon two's copy took it up before telling its clients: their pickers show it.
    await configShows(y, sessionId, 'mode', 'plan');

    // A queue's delivery mode (stored in the session's meta) travels the same way.
    expect(created.configOptions?.find((option) => option.id === 'followUpMode')?.currentValue).toBe('oneAtATime');
    await x.call('session/set_config_option', { sessionId, configId: 'followUpMode', value: 'all' });
    await configShows(y, sessionId, 'followUpMode', 'all');

    // A client loading the session on daemon two now is told the new mode by daemon two's copy.
    const z = two.connect();
    await initialize(z);
    const loaded = await z.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('plan');
    expect(loaded.configOptions?.find((option) => option.id === 'followUpMode')?.currentValue).toBe('all');

    // A prompt sent on daemon two runs its turn in plan mode, and the change made on daemon one is not undone by it.
    replay.enqueue({ body: chatCompletionSse(['A', ' plan.']) });
    expect(await y.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what would you change?' }] })).toEqual({ stopReason: 'end_turn' });
    const system = (replay.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages[0]!;
    expect(system.content).toContain('plan mode');
    const onOne = one.connect();
    await initialize(onOne);
    expect((await onOne.call('session/load', { sessionId, cwd: workspace, mcpServers: [] })).modes?.currentModeId).toBe('plan');
  });

  it('a mode set on the daemon following is shown to the clients of the daemon the session was made on, both ways', async () => {
    const { workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const y = two.peer;
    for (const peer of [x, y]) await initialize(peer);
    const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    await y.call('session/set_mode', { sessionId, modeId: 'plan' });
    await configShows(x, sessionId, 'mode', 'plan');
    await x.call('session/set_mode', { sessionId, modeId: 'build' });
    await configShows(y, sessionId, 'mode', 'build');
    // Each change is shown once on each daemon: daemon one does not publish daemon two's again.
    const modeUpdates = (peer: RpcPeer): string[] =>
      peer.received.filter((m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'current_mode_update').map((m) => m.params.update.currentModeId);
    expect(modeUpdates(x)).toEqual(['plan', 'build']);
    expect(modeUpdates(y)).toEqual(['plan', 'build']);
  });

  it('a compaction outside a turn on one daemon is shown to a follower on another as to one on its own daemon, and a prompt there goes on from the summary', async () => {
    const { replay, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2, { 'e2e-model': { contextWindow: 4000, maxOutputTokens: 500 } });
    const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
    const x = one.peer;
    const w = one.connect();
    const y = two.peer;
    for (const peer of [x, w, y]) await initialize(peer);
    const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
    await w.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    for (let i = 0; i < 6; i++) {
      replay.enqueue({ body: chatCompletionSse([`ok ${i}`]) });
      await x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: longText(i) }] });
    }
    let ended = 0;
    await y.waitFor((m) => m.method === 'agentd/event' && m.params.event.type === 'turn_end' && ++ended === 6, 15_000, 'the sixth turn_end on daemon two');
    const fromW = w.received.length;
    const fromY = y.received.length;

    replay.enqueue({ body: chatCompletionSse(['The user wrote notes 0 to 5.']) });
    expect(await x.call('session/compact', { sessionId })).toEqual({ compacted: true });
    const done = (m: WireMessage): boolean => m.method === 'agentd/event' && m.params.event.type === 'compaction' && m.params.event.status === 'completed';
    await w.waitFor(done);
    await y.waitFor(done, 15_000, 'the compaction to complete on daemon two');
    expect(toldAbout(y, sessionId, fromY)).toEqual(toldAbout(w, sessionId, fromW));

    replay.enqueue({ body: chatCompletionSse(['after']) });
    expect(await y.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'next' }] })).toEqual({ stopReason: 'end_turn' });
    const messages = JSON.stringify((replay.requests.at(-1)!.body as { messages: unknown[] }).messages);
    expect(messages).toContain('The user wrote notes 0 to 5.');
    expect(messages).not.toContain('note 0:');
  });
});
