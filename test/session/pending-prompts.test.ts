import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { openStore } from '../../src/store/open-store.js';
import type { PendingPrompt } from '../../src/store/pending-prompt-store.js';
import type { Store } from '../../src/store/store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';
import { startReplayServer } from '../support/replay-server.js';

/** The model's first answer: a bash call (`id`) that runs until the test writes `go` in the workspace, so the turn runs until then. */
function waitForGo(id: string): { body: string } {
  return { body: chatToolCallSse([{ id, name: 'bash', arguments: { command: 'while [ ! -f go ]; do sleep 0.02; done' } }]) };
}

describe('steers and follow-ups kept in the store while they wait', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  async function pending(): Promise<PendingPrompt[]> {
    return (await h.daemon.context()).sessions.store.pendingPrompts.list(h.sessionId);
  }

  async function userTexts(): Promise<string[]> {
    const messages = await (await h.daemon.context()).sessions.store.listMessages(h.sessionId);
    return messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
  }

  /** Starts a turn that runs until `release()` (or an abort); its model answers `done` after the tool when `released` is set. */
  async function whileRunning(released = true): Promise<{ prompt: Promise<{ result?: unknown; error?: { code: number; message: string } }>; release(): void }> {
    // A call id of its own: the wait below must not match an earlier turn's call.
    const callId = `call_wait_${h.replay.requests.length}`;
    h.replay.enqueue(waitForGo(callId));
    if (released) h.replay.enqueue({ body: chatCompletionSse(['done']) });
    const prompt = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'one' }] });
    await h.peer.waitFor((m) => m.params?.update?.toolCallId === callId && m.params.update.status === 'in_progress');
    return { prompt, release: () => writeFileSync(join(h.workspace, 'go'), '') };
  }

  it('stores a follow-up before answering, delivers it once and removes it with the message that delivers it', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] } });
    const { prompt, release } = await whileRunning();
    h.replay.enqueue({ body: chatCompletionSse(['second answer']) });
    expect(await h.peer.call('session/followUp', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'and two' }] })).toEqual({ queued: 1 });
    // Answered: it is in the store, with this daemon and the connection that sent it.
    const [stored] = await pending();
    expect(stored).toMatchObject({ queue: 'followUp', content: [{ type: 'text', text: 'and two' }], claimedBy: null });
    expect(stored!.daemonId).toMatch(/^dmn_/);
    release();
    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });
    expect(await pending()).toEqual([]);
    expect(JSON.stringify(h.requestBody(2).messages.at(-1))).toContain('and two');
    expect((await userTexts()).filter((text) => text.includes('and two'))).toHaveLength(1);
  });

  it('removes a steer with the message that delivers it, while the turn goes on', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] } });
    const { prompt, release } = await whileRunning(false);
    const stalled = chatCompletionSse(['Looking', ' there']);
    h.replay.enqueue({ body: stalled, stallAfterBytes: stalled.indexOf('" there"') });
    expect(await h.peer.call('session/steer', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'look here' }] })).toEqual({ queued: 1 });
    expect(await pending()).toHaveLength(1);
    release();
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    // Delivered (the model was asked with it) and gone from the store, though the turn still runs.
    expect(JSON.stringify(h.requestBody(1).messages.at(-1))).toContain('look here');
    expect(await pending()).toEqual([]);
    expect((await userTexts()).filter((text) => text.includes('look here'))).toHaveLength(1);
    await h.peer.call('session/abort', { sessionId: h.sessionId });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
  });

  it('removes what an abort drops, and keeps what an abort asked to keep until a turn delivers it', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] } });
    let { prompt } = await whileRunning(false);
    const followUp = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'later' }], _meta: { agentd: { delivery: 'followUp' } } });
    await h.peer.call('session/steer', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'steer' }] });
    await h.peer.waitFor((m) => m.method === 'agentd/event' && m.params.event.type === 'queue' && m.params.event.followUp === 1 && m.params.event.steering === 1);
    expect((await pending()).map((p) => p.queue)).toEqual(['followUp', 'steering']);
    await h.peer.call('session/abort', { sessionId: h.sessionId });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
    expect((await followUp).result).toEqual({ stopReason: 'cancelled' });
    expect(await pending()).toEqual([]);

    ({ prompt } = await whileRunning(false));
    await h.peer.call('session/followUp', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'kept' }] });
    await h.peer.call('session/abort', { sessionId: h.sessionId, keepQueues: true });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
    expect((await pending()).map((p) => p.content)).toEqual([[{ type: 'text', text: 'kept' }]]);
    h.replay.enqueue({ body: chatCompletionSse(['again']) });
    h.replay.enqueue({ body: chatCompletionSse(['kept it']) });
    expect((await h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'go on' }] })).result).toEqual({ stopReason: 'end_turn' });
    expect(await pending()).toEqual([]);
    expect((await userTexts()).filter((text) => text.includes('kept'))).toHaveLength(1);
  });

  it('removes a follow-up answered by a turn that failed before taking it', async () => {
    h = await startLoopHarness({ providers: { local: { maxRetries: 0 } } });
    const partial = chatCompletionSse(['part ', 'one ', 'and more']);
    h.replay.enqueue({ body: partial, resetAfterBytes: partial.indexOf('and more') - 20, chunking: 'bytewise', delayMs: 3 });
    const first = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'a' }] });
    await h.peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    const queued = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'later' }], _meta: { agentd: { delivery: 'followUp' } } });
    expect((await first).error!.code).toBe(-32014);
    expect((await queued).error!.code).toBe(-32014);
    expect(await pending()).toEqual([]);
  });

  it('fails a follow-up the store cannot keep, and queues nothing', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] } });
    const { prompt, release } = await whileRunning();
    const db = new Database(join(h.home, 'data', 'agentd.db'));
    db.exec(`CREATE TRIGGER refuse_pending BEFORE INSERT ON pending_prompts BEGIN SELECT RAISE(ABORT, 'disk says no'); END;`);
    db.close();
    const refused = await h.peer.request('session/followUp', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'lost?' }] });
    expect(refused.error?.message).toContain('could not save the queued prompt (SQLITE_CONSTRAINT_TRIGGER: disk says no)');
    release();
    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });
    // The turn ended without it: the model was asked twice (the call, then done), and nothing waits.
    expect(h.replay.requests).toHaveLength(2);
    expect(h.peer.received.some((m) => m.method === 'agentd/event' && m.params.event.type === 'queue')).toBe(false);
    expect(await pending()).toEqual([]);
  });
});

describe('a follow-up whose turn ends while it is being stored', () => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('starts the next turn itself, delivered once as that turn’s prompt', async () => {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    // The real store, whose first turn's end waits until the test lets it through (a slow database).
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reached!: () => void;
    const ending = new Promise<void>((resolve) => (reached = resolve));
    let store!: Store;
    const started = await startDaemon({
      cwd: workspace,
      env: daemonEnv(home.home),
      version: 'test',
      write: () => {},
      runSchedules: false,
      openStore: (file) => {
        store = openStore(file);
        const endTurn = store.endTurn.bind(store);
        let first = true;
        store.endTurn = async (...args) => {
          if (first) {
            first = false;
            reached();
            await gate;
          }
          return endTurn(...args);
        };
        return store;
      },
    });
    cleanups.push(() => started.shutdown());
    const session = await started.daemon.sessions.create({ cwd: workspace });
    replay.enqueue({ body: chatCompletionSse(['done']) });
    replay.enqueue({ body: chatCompletionSse(['followed']) });

    const first = session.submit([{ type: 'text', text: 'one' }]);
    // The loop has stopped and the turn's end is being written: the follow-up is stored after it.
    await ending;
    expect(session.state).toBe('running');
    const followUp = session.submit([{ type: 'text', text: 'and two' }], { delivery: 'followUp' });
    open();
    expect(await first.outcome).toEqual({ stopReason: 'end_turn' });
    // Stored once that turn had ended: it started a turn instead of joining a queue.
    expect(await followUp.queued).toBeUndefined();
    expect(await followUp.outcome).toEqual({ stopReason: 'end_turn' });
    expect(await store.pendingPrompts.list(session.id)).toEqual([]);
    expect((await store.listTurns(session.id)).map((turn) => turn.status)).toEqual(['end_turn', 'end_turn']);
    const users = (await store.listMessages(session.id)).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
    expect(users.map((text) => (text.includes('and two') ? 'and two' : text.includes('one') ? 'one' : text))).toEqual(['one', 'and two']);
    expect(JSON.stringify((replay.requests[1]!.body as { messages: unknown[] }).messages)).toContain('and two');
  });
});
