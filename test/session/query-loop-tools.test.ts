import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { until } from '../support/daemon-process.js';
import { startLoopHarness, toolResults, type LoopHarness } from '../support/loop-harness.js';

describe('the query loop with tools', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('reads config.toml and changes port to 9090: three model calls, a read, an edit, every step streamed', async () => {
    h = await startLoopHarness();
    writeFileSync(join(h.workspace, 'config.toml'), '[server]\nhost = "0.0.0.0"\nport = 8080\n');
    h.replay.enqueue({ body: chatToolCallSse([{ id: 'call_read', name: 'read', arguments: { path: 'config.toml' } }]) });
    h.replay.enqueue({ body: chatToolCallSse([{ id: 'call_edit', name: 'edit', arguments: { path: 'config.toml', old: 'port = 8080', new: 'port = 9090' } }]) });
    h.replay.enqueue({ body: chatCompletionSse(['Changed ', 'the port to 9090.']) });
    const asked: string[] = [];
    h.peer.onRequest('session/request_permission', (params) => {
      asked.push(params.toolCall.title!);
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    });

    const result = await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'read config.toml and change port to 9090' }] });
    expect(result).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(join(h.workspace, 'config.toml'), 'utf8')).toBe('[server]\nhost = "0.0.0.0"\nport = 9090\n');
    expect(h.replay.requests).toHaveLength(3);
    expect(toolResults(h.requestBody(1)).call_read).toContain('port = 8080');
    expect(toolResults(h.requestBody(2)).call_edit).toMatch(/9090/);
    expect(asked).toHaveLength(1); // the read inside the workspace needs no permission; the edit asks

    const updates = h.peer.updates(h.sessionId);
    const kinds = updates.map((u) => `${u.sessionUpdate}${u.status ? ':' + u.status : ''}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['tool_call:pending', 'tool_call_update:in_progress', 'tool_call_update:completed', 'agent_message_chunk']),
    );
    const readCall = updates.find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'call_read');
    expect(readCall).toMatchObject({ kind: 'read', rawInput: { path: 'config.toml' } });
    expect(readCall.locations[0].path).toBe(join(h.workspace, 'config.toml'));
    const editDone = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_edit' && u.status === 'completed');
    expect(editDone.content).toContainEqual(expect.objectContaining({ type: 'diff', path: join(h.workspace, 'config.toml') }));
    expect(h.peer.agentText(h.sessionId)).toBe('Changed the port to 9090.');
  });

  it('answers invalid arguments and unknown tools with error results the model reads', async () => {
    h = await startLoopHarness();
    h.replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_bad', name: 'read', arguments: { path: 42 } },
        { id: 'call_unknown', name: 'frobnicate', arguments: {} },
      ]),
    });
    h.replay.enqueue({ body: chatCompletionSse(['Sorry.']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'go' }] })).toEqual({ stopReason: 'end_turn' });
    const results = toolResults(h.requestBody(1));
    expect(results.call_bad).toMatch(/Invalid arguments for read: .*path/);
    expect(results.call_unknown).toMatch(/Unknown tool "frobnicate"/);
    const failed = h.peer.updates(h.sessionId).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
    expect(failed.map((u) => u.toolCallId).sort()).toEqual(['call_bad', 'call_unknown']);
  });

  it('in plan mode offers no write tools and refuses a write at dispatch', async () => {
    h = await startLoopHarness();
    expect(await h.peer.call('session/set_mode', { sessionId: h.sessionId, modeId: 'plan' })).toEqual({});
    h.replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: 'new.txt', content: 'x' } }]) });
    h.replay.enqueue({ body: chatCompletionSse(['Here is the plan.']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'add new.txt' }] });

    const offered = (h.requestBody(0).tools ?? []).map((t) => t.function.name);
    expect(offered).toContain('read');
    expect(offered).not.toContain('write');
    expect(offered).not.toContain('edit');
    expect(offered).not.toContain('bash');
    expect(toolResults(h.requestBody(1)).call_write).toMatch(/plan agent .* may not use write/);
    expect(() => readFileSync(join(h.workspace, 'new.txt'))).toThrow();
    expect(h.peer.updates(h.sessionId)).toContainEqual(expect.objectContaining({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }));

    const bad = await h.peer.request('session/set_mode', { sessionId: h.sessionId, modeId: 'wizard' });
    expect(bad.error!.code).toBe(-32602);
    expect(bad.error!.message).toMatch(/unknown mode "wizard"; available: build, plan, explore/);
  });

  it('runs two sub-agents and returns both answers to the parent', async () => {
    h = await startLoopHarness();
    h.replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_a', name: 'agent', arguments: { description: 'find A', prompt: 'Find A', agent: 'explore' } },
        { id: 'call_b', name: 'agent', arguments: { description: 'find B', prompt: 'Find B', agent: 'explore' } },
      ]),
    });
    h.replay.enqueue({ body: chatCompletionSse(['answer one']) });
    h.replay.enqueue({ body: chatCompletionSse(['answer two']) });
    h.replay.enqueue({ body: chatCompletionSse(['Both found.']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'find A and B' }] })).toEqual({ stopReason: 'end_turn' });

    const results = toolResults(h.requestBody(3));
    expect(new Set([results.call_a, results.call_b])).toEqual(new Set(['answer one', 'answer two']));
    // Each child ran with its own context: just its task, no parent history.
    for (const n of [1, 2]) {
      const messages = h.requestBody(n).messages.filter((m) => m.role !== 'system');
      expect(messages).toHaveLength(1);
      expect(['Find A', 'Find B']).toContain(messages[0]!.content);
    }
  });

  it('runs sub-agents in parallel, shows their progress under the parent call, and abort reaches them', async () => {
    h = await startLoopHarness();
    h.replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_a', name: 'agent', arguments: { description: 'slow A', prompt: 'A', agent: 'explore' } },
        { id: 'call_b', name: 'agent', arguments: { description: 'slow B', prompt: 'B', agent: 'explore' } },
      ]),
    });
    // Both children stream a little and then hang: only parallel children can both be waiting.
    const hanging = chatCompletionSse(['working ', 'on it', ' forever']);
    const stallAt = hanging.indexOf('forever') - 30;
    h.replay.enqueue({ body: hanging, stallAfterBytes: stallAt });
    h.replay.enqueue({ body: hanging, stallAfterBytes: stallAt });
    const prompt = h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await until(() => h.replay.requests.length === 3, 15_000, 'both sub-agent requests');
    await h.peer.waitFor(
      (m) => m.params?.update?.sessionUpdate === 'tool_call_update' && JSON.stringify(m.params.update.content ?? '').includes('on it'),
      15_000,
      'sub-agent progress under the parent call',
    );
    expect(await h.peer.call('session/abort', { sessionId: h.sessionId })).toEqual({ stopped: true });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
    const sessions = await h.peer.call('session/list', { cwd: h.workspace });
    expect(sessions.sessions).toHaveLength(3);
  });
});
