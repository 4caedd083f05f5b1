import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionOverview } from '../../../protocol/index.js';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import type { WireMessage } from '../../support/rpc-peer.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../../support/store-implementations.js';

/** The `session_changed` events a client received for one session, in order. */
function changes(received: WireMessage[], sessionId: string): SessionOverview[] {
  return received
    .filter((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'session_changed' && m.params.event.session.sessionId === sessionId)
    .map((m) => m.params.event.session as SessionOverview);
}

// The same daemon on each store implementation (search and its cursor come from the store).
describe.each(STORE_IMPLEMENTATIONS)('$name store', (implementation) => {
  if (!implementation.available()) return;
  describe('daemon/sessions', () => {
    let database: StoreDatabase;
    let replay: ReplayServer;
    let home: ReturnType<typeof makeHome>;
    let workspace: string;
    let other: string;
    let daemon: InProcessDaemon;

    beforeEach(async () => {
      replay = await startReplayServer();
      home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
      workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
      other = mkdtempSync(join(tmpdir(), 'agentd-ws-other-'));
      database = await implementation.create();
      daemon = startInProcessDaemon(daemonEnv(home.home, database.daemonEnv), process.cwd());
      await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    });

    afterEach(async () => {
      await daemon.close();
      await database.dispose();
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    });

    /** A session in `cwd` that ran one prompt answered `answer` (a replayed text, or a 500 that fails the turn). */
    async function sessionWithTurn(cwd: string, text: string, answer: 'ok' | 'fail'): Promise<string> {
      const { peer } = daemon;
      if (answer === 'ok') replay.enqueue({ body: chatCompletionSse(['done']) });
      else for (let i = 0; i < 4; i++) replay.enqueue({ status: 400, body: JSON.stringify({ error: { message: 'model not found' } }) });
      const { sessionId } = await peer.call('session/new', { cwd, mcpServers: [] });
      await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
      return sessionId;
    }

    it('lists sessions of every project newest first, with state, mode, model, cost, and filters by cwd, title and state', async () => {
      const { peer } = daemon;
      const fixed = await sessionWithTurn(workspace, 'Fix the flaky test', 'ok');
      const broken = await sessionWithTurn(other, 'Refactor the parser', 'fail');
      await peer.call('session/close', { sessionId: fixed });
      const idle = (await peer.call('session/new', { cwd: other, mcpServers: [] })).sessionId;

      const all = await peer.call('daemon/sessions', {});
      expect(all.total).toBe(3);
      expect(all.sessions.map((s) => s.sessionId)).toEqual([idle, broken, fixed]);
      expect(all.sessions[0]).toEqual({
        sessionId: idle,
        cwd: other,
        title: null,
        state: 'idle',
        mode: 'build',
        model: null,
        costUsd: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        live: true,
      });
      expect(all.sessions[1]).toMatchObject({ sessionId: broken, state: 'failed', live: true, title: 'Refactor the parser', lastError: expect.stringMatching(/model not found/) });
      expect(all.sessions[2]).toMatchObject({ sessionId: fixed, state: 'closed', live: false, title: 'Fix the flaky test' });

      expect((await peer.call('daemon/sessions', { cwd: workspace })).sessions.map((s) => s.sessionId)).toEqual([fixed]);
      expect((await peer.call('daemon/sessions', { query: 'FLAKY' })).sessions.map((s) => s.sessionId)).toEqual([fixed]);
      // A title search takes % and _ literally.
      expect((await peer.call('daemon/sessions', { query: '%' })).total).toBe(0);
      expect((await peer.call('daemon/sessions', { states: ['failed'] })).sessions.map((s) => s.sessionId)).toEqual([broken]);
      expect((await peer.call('daemon/sessions', { states: ['closed', 'idle'] })).sessions.map((s) => s.sessionId)).toEqual([idle, fixed]);
      expect((await peer.call('daemon/sessions', { states: ['running'] })).total).toBe(0);

      // A stored session whose last turn failed is failed too, once closed.
      await peer.call('session/close', { sessionId: broken });
      expect((await peer.call('daemon/sessions', { states: ['failed'] })).sessions).toEqual([expect.objectContaining({ sessionId: broken, live: false, state: 'failed' })]);
    });

    it('pages by cursor without repeating or skipping a session while another one changes', async () => {
      const { peer } = daemon;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId);
      const first = await peer.call('daemon/sessions', { limit: 2 });
      expect(first.total).toBe(5);
      expect(first.sessions).toHaveLength(2);
      // The newest session changes (it moves to the top): the pages after the cursor are unaffected.
      await peer.call('session/set_mode', { sessionId: first.sessions[0]!.sessionId, modeId: 'plan' });
      const second = await peer.call('daemon/sessions', { limit: 2, cursor: first.nextCursor! });
      const third = await peer.call('daemon/sessions', { limit: 2, cursor: second.nextCursor! });
      expect(third.nextCursor).toBeUndefined();
      const seen = [...first.sessions, ...second.sessions, ...third.sessions].map((s) => s.sessionId);
      expect(new Set(seen).size).toBe(5);
      expect(seen.sort()).toEqual([...ids].sort());
    });

    it('shows waiting_permission with the question while one is open, and sends session_changed for each change', async () => {
      const { peer } = daemon;
      let answer: ((value: unknown) => void) | undefined;
      peer.onRequest('session/request_permission', () => new Promise((resolve) => (answer = resolve)));
      replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'a.txt', content: 'x' } }]) });
      replay.enqueue({ body: chatCompletionSse(['written']) });
      const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
      const prompt = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Write a file' }] });
      await peer.waitFor((m) => m.method === 'session/request_permission');

      const waiting = await peer.call('daemon/sessions', { states: ['waiting_permission'] });
      expect(waiting.sessions).toEqual([expect.objectContaining({ sessionId, state: 'waiting_permission', pendingPermission: { toolCallId: 'call_w', title: expect.stringContaining('a.txt') } })]);
      await peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.session?.state === 'waiting_permission');

      answer!({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      await prompt;
      const ended = await peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.session?.sessionId === sessionId && m.params.event.session.state === 'idle' && m.params.event.session.costUsd >= 0 && m.params.event.session.title === 'Write a file');
      expect(ended.params.event.session.pendingPermission).toBeUndefined();
      const states = changes(peer.received, sessionId).map((s) => s.state);
      // Ran, waited for the answer, ran on, ended idle; never a state out of order. (Changes of
      // one tick go out as one event, so on a slower store the creation's may already say running.)
      expect(['idle', 'running']).toContain(states[0]);
      expect(states).toContain('running');
      expect(states.indexOf('waiting_permission')).toBeGreaterThan(states.indexOf('running'));
      expect(states[states.length - 1]).toBe('idle');

      await peer.call('session/set_mode', { sessionId, modeId: 'plan' });
      await peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.session?.mode === 'plan');
      await peer.call('session/delete', { sessionId });
      await peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'session_removed' && m.params.event.sessionId === sessionId);
      expect((await peer.call('daemon/sessions', {})).total).toBe(0);
    });

    it('sends nothing to a client that did not opt in to events', async () => {
      const quiet = daemon.connect();
      await quiet.call('initialize', { protocolVersion: 1 });
      await quiet.call('session/new', { cwd: workspace, mcpServers: [] });
      await daemon.peer.waitFor((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'session_changed');
      expect(quiet.received.filter((m) => m.method === 'agentd/daemonEvent')).toEqual([]);
    });

    it('refuses a cursor it did not make, a limit out of range and an unknown state, naming the field', async () => {
      const { peer } = daemon;
      const cursor = await peer.requestUnchecked('daemon/sessions', { cursor: 'not-a-cursor' });
      expect(cursor.error).toMatchObject({ code: -32602, message: expect.stringMatching(/cursor.*nextCursor/) });
      const limit = await peer.requestUnchecked('daemon/sessions', { limit: 501 });
      expect(limit.error).toMatchObject({ code: -32602, message: expect.stringMatching(/limit/) });
      const state = await peer.requestUnchecked('daemon/sessions', { states: ['sleeping'] });
      expect(state.error).toMatchObject({ code: -32602, message: expect.stringMatching(/states/) });
      const extra = await peer.requestUnchecked('daemon/sessions', { sort: 'title' });
      expect(extra.error).toMatchObject({ code: -32602, message: expect.stringMatching(/sort/) });
    });
  });
});
