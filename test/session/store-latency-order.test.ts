import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon, type StartedDaemon } from '../../src/daemon/start-daemon.js';
import type { SessionEvent } from '../../src/session/session-event.js';
import { SessionWriter } from '../../src/session/session-writer.js';
import { openStore } from '../../src/store/open-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { delayingStore, type DelayFor, type DelayingStore } from '../support/delaying-store.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/**
 * The ordering guarantees of the session layer with a store that answers later than it
 * is asked (as a database on a network does): the real SQLite store behind a delay.
 */
describe('a store with network latency', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(delayFor: DelayFor): Promise<{ started: StartedDaemon; store: DelayingStore; replay: ReplayServer; workspace: string }> {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    let store: DelayingStore | undefined;
    const started = await startDaemon({
      cwd: workspace,
      env: daemonEnv(home.home),
      version: 'test',
      write: () => {},
      runSchedules: false,
      openStore: (file) => (store = delayingStore(openStore(file), delayFor)),
    });
    cleanups.push(() => started.shutdown());
    return { started, store: store!, replay, workspace };
  }

  it('announces a turn and each message only once the store holds them, and answers session creation after its row exists', async () => {
    const { started, store, replay, workspace } = await start(() => 10);
    const session = await started.daemon.sessions.create({ cwd: workspace });
    expect(await store.inner.getSession(session.id)).toMatchObject({ id: session.id });

    // What the store holds at the moment each event goes out (better-sqlite3 reads at once).
    const seen: Array<Promise<{ event: SessionEvent['type']; messages: number; turns: string[] }>> = [];
    session.subscribe((event) => {
      if (event.type !== 'turn_start' && event.type !== 'user_message' && event.type !== 'message_committed' && event.type !== 'turn_end') return;
      const messages = store.inner.listMessages(session.id);
      const turns = store.inner.listTurns(session.id);
      seen.push(Promise.all([messages, turns]).then(([m, t]) => ({ event: event.type, messages: m.length, turns: t.map((turn) => turn.status) })));
    });
    replay.enqueue({ body: chatCompletionSse(['Hello there.']) });
    expect(await session.submit([{ type: 'text', text: 'hi' }]).outcome).toEqual({ stopReason: 'end_turn' });

    expect(await Promise.all(seen)).toEqual([
      { event: 'turn_start', messages: 0, turns: ['running'] },
      { event: 'user_message', messages: 1, turns: ['running'] },
      { event: 'message_committed', messages: 1, turns: ['running'] },
      { event: 'message_committed', messages: 2, turns: ['running'] },
      { event: 'turn_end', messages: 2, turns: ['end_turn'] },
    ]);
  });

  it('keeps two prompts\' messages in the order they were committed', async () => {
    const { started, store, replay, workspace } = await start(() => 5);
    const session = await started.daemon.sessions.create({ cwd: workspace });
    replay.enqueue({ body: chatCompletionSse(['first answer']), delayMs: 50 });
    replay.enqueue({ body: chatCompletionSse(['second answer']) });
    // A follow-up to an idle session starts its turn at once; the second joins that turn's queue.
    const first = session.submit([{ type: 'text', text: 'first' }], { delivery: 'followUp' }).outcome;
    const second = session.submit([{ type: 'text', text: 'second' }], { delivery: 'followUp' }).outcome;
    await Promise.all([first, second]);
    const stored = await store.inner.listMessages(session.id);
    expect(stored.map((m) => [m.seq, m.role, JSON.stringify(m.content)])).toEqual([
      [1, 'user', JSON.stringify([{ type: 'text', text: 'first' }])],
      [2, 'assistant', JSON.stringify([{ type: 'text', text: 'first answer' }])],
      [3, 'user', JSON.stringify([{ type: 'text', text: 'second' }])],
      [4, 'assistant', JSON.stringify([{ type: 'text', text: 'second answer' }])],
    ]);
  });

  it('writes one session\'s changes one at a time, in the order asked, even when a later one would answer first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentd-writer-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // Each write waits less than the one before: without a queue the last would land first.
    let wait = 60;
    const store = delayingStore(openStore(join(dir, 'agentd.db')), () => (wait = Math.max(0, wait - 20)));
    cleanups.push(() => store.close());
    const record = await store.inner.createSession({ id: 's1', cwd: dir });
    const events: string[] = [];
    const writer = new SessionWriter(record, store, (event) => events.push(event.type === 'message_committed' ? `committed ${JSON.stringify(event.message.content)}` : event.type));
    await writer.startTurn('t1');
    const text = (t: string) => [{ type: 'text' as const, text: t }];
    await Promise.all([
      writer.commit({ role: 'user', content: text('one') }, { status: 'complete' }),
      writer.commit({ role: 'assistant', content: text('two') }, { status: 'complete' }),
      writer.update({ mode: 'plan' }),
      writer.commit({ role: 'user', content: text('three') }, { status: 'complete' }),
    ]);
    expect((await store.inner.listMessages('s1')).map((m) => [m.seq, m.content])).toEqual([
      [1, text('one')],
      [2, text('two')],
      [3, text('three')],
    ]);
    expect(events).toEqual(['turn_start', `committed ${JSON.stringify(text('one'))}`, `committed ${JSON.stringify(text('two'))}`, `committed ${JSON.stringify(text('three'))}`]);
    // The record kept is the newest: the settings change, then the last message's time.
    expect(writer.record.mode).toBe('plan');
    expect(writer.record.updatedAt).toBe((await store.inner.getSession('s1'))!.updatedAt);
  });

  it('keeps both of two settings changes made at once (each reads what the other wrote)', async () => {
    const { started, store, workspace } = await start(() => 10);
    const session = await started.daemon.sessions.create({ cwd: workspace });
    await Promise.all([session.setDeliveryMode('steering', 'oneAtATime'), session.setDeliveryMode('followUp', 'all'), session.setMode('plan')]);
    const stored = (await store.inner.getSession(session.id))!;
    expect(stored.meta.deliveryModes).toEqual({ steering: 'oneAtATime', followUp: 'all' });
    expect(stored.mode).toBe('plan');
  });

  it('deletes a session only after the write in flight has landed: the write succeeds and the row stays gone', async () => {
    const { started, store, workspace } = await start((method) => (method === 'updateSession' ? 40 : 0));
    const session = await started.daemon.sessions.create({ cwd: workspace });
    const changed = session.setMode('plan');
    await started.daemon.sessions.delete(session.id);
    await expect(changed).resolves.toBeUndefined();
    expect(await store.inner.getSession(session.id)).toBeUndefined();
    expect(started.daemon.sessions.get(session.id)).toBeUndefined();
  });

  it('gives a client joining a running turn every message once: in the replay or as a live event, never neither, never both', async () => {
    // Reads answer slowly, writes quickly: a read that ran before a commit would answer after the commit's event went out.
    const reads = new Set(['listMessages', 'listTurns']);
    const { started, replay, workspace } = await start((method) => (reads.has(method) ? { request: 5, response: 40 } : { request: 5, response: 0 }));
    const session = await started.daemon.sessions.create({ cwd: workspace });
    replay.enqueue({ body: chatCompletionSse(['an answer']) });
    const done = session.submit([{ type: 'text', text: 'a prompt' }], { delivery: 'followUp' }).outcome;
    const joined = await started.daemon.sessions.openWithMessages(session.id);
    // What attaching does: the replay, then the live events from this moment on.
    const seen = joined.messages.map((m) => JSON.stringify(m.content));
    joined.session.subscribe((event) => {
      if (event.type === 'message_committed') seen.push(JSON.stringify(event.message.content));
    });
    await done;
    expect(seen).toEqual([JSON.stringify([{ type: 'text', text: 'a prompt' }]), JSON.stringify([{ type: 'text', text: 'an answer' }])]);
  });

  it('loads a stored session once when two clients open it at the same moment', async () => {
    const { started, workspace } = await start(() => 10);
    const { id } = await started.daemon.sessions.create({ cwd: workspace });
    await started.daemon.sessions.close(id);
    const [a, b] = await Promise.all([started.daemon.sessions.open(id), started.daemon.sessions.open(id)]);
    expect(a).toBe(b);
    expect(started.daemon.sessions.get(id)).toBe(a);
  });
});
