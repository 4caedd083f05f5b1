import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';
import { agentdMeta } from '../support/agentd-meta.js';

const base = { id: 'chatcmpl-cut', object: 'chat.completion.chunk', created: 1_763_800_000, model: 'e2e-model' };
const frame = (delta: unknown, finish: string | null = null): string =>
  `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('recovery, compaction, budget and fallback', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('never runs a tool call cut off by max_tokens and resumes mid-thought', async () => {
    h = await startLoopHarness({ permissions: { allow: ['write'] } });
    const cut =
      frame({ role: 'assistant', content: 'Part one. ' }) +
      frame({ tool_calls: [{ index: 0, id: 'call_cut', type: 'function', function: { name: 'write', arguments: '' } }] }) +
      frame({ tool_calls: [{ index: 0, function: { arguments: '{"path":"cut.txt","content":"abc' } }] }) +
      frame({}, 'length') +
      'data: [DONE]\n\n';
    h.replay.enqueue({ body: cut });
    h.replay.enqueue({ body: chatCompletionSse(['part two.']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'write a lot' }] })).toEqual({ stopReason: 'end_turn' });

    expect(existsSync(join(h.workspace, 'cut.txt'))).toBe(false);
    const messages = h.requestBody(1).messages;
    expect(messages.at(-2)).toEqual({ role: 'assistant', content: 'Part one. ' });
    const resume = JSON.stringify(messages.at(-1));
    expect(resume).toMatch(/continue/i);
    expect(resume).toContain('write');
    expect(messages.some((m) => m.role === 'tool')).toBe(false);
  });

  it('compacts a tiny context window with a separate summary call and the turn goes on', async () => {
    h = await startLoopHarness({ providers: { local: { models: { 'e2e-model': { contextWindow: 4000, maxOutputTokens: 500 } } } } });
    for (let i = 0; i < 6; i++) {
      // The sixth answer reports a nearly full window: the next turn must compact first.
      h.replay.enqueue({ body: chatCompletionSse([`answer ${i}`], i === 5 ? { promptTokens: 3300 } : {}) });
      const text = `question ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(25)}`;
      await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text }] });
    }
    h.replay.enqueue({ body: chatCompletionSse(['## Request and intent\nThe user asked questions 0 to 5.']) });
    h.replay.enqueue({ body: chatCompletionSse(['answer 6']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'question 6' }] })).toEqual({ stopReason: 'end_turn' });

    expect(h.replay.requests).toHaveLength(8);
    const summaryCall = h.requestBody(6);
    expect(summaryCall.tools ?? []).toEqual([]);
    const instruction = JSON.stringify(summaryCall.messages);
    for (const section of ['Request and intent', 'Key concepts', 'Files and code', 'Errors and fixes', 'Pending tasks', 'Current work', 'Next step']) {
      expect(instruction).toContain(section);
    }
    expect(instruction).toContain('question 0');
    const next = h.requestBody(7).messages.filter((m) => m.role !== 'system');
    expect(JSON.stringify(next[0])).toContain('<summary of the earlier conversation>');
    expect(JSON.stringify(next)).not.toContain('question 0:');
    expect(JSON.stringify(next.at(-1))).toContain('question 6');
    const events = h.peer.received.filter((m) => m.method === 'agentd/event' && m.params.event.type === 'compaction').map((m) => m.params.event.status);
    expect(events).toEqual(['started', 'completed']);

    // The store still has every message: a reload replays the whole conversation.
    const other = await h.peer.call('session/list', { cwd: h.workspace });
    expect(other.sessions).toHaveLength(1);
  });

  it('ends the turn with a clear outcome once the session budget is spent', async () => {
    h = await startLoopHarness({ budgetUsd: 0.001, providers: { local: { models: { 'e2e-model': { inputPrice: 100, outputPrice: 100 } } } } });
    h.replay.enqueue({ body: chatCompletionSse(['costly ', 'answer']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'one' }] })).toEqual({ stopReason: 'end_turn' });
    const usage = h.peer.updates(h.sessionId).find((u) => u.sessionUpdate === 'usage_update');
    expect(usage!.cost!.amount).toBeCloseTo((12 * 100 + 2 * 100) / 1e6, 10);

    const second = await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'two' }] });
    expect(second.stopReason).toBe('end_turn');
    expect(agentdMeta(second).outcome).toBe('budget_exceeded');
    expect(agentdMeta(second).message).toMatch(/reaches its budget of \$0\.001/);
    expect(h.replay.requests).toHaveLength(1);
  });

  it('falls back to fallbackModel after repeated 529s, and says so', async () => {
    h = await startLoopHarness({
      fallbackModel: 'backup/e2e-backup',
      providers: { backup: { type: 'openai-chat', baseUrl: '{REPLAY}/v1' } },
    });
    const overloaded = { status: 529, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'Overloaded', type: 'overloaded_error' } }) };
    h.replay.enqueue(overloaded);
    h.replay.enqueue(overloaded);
    h.replay.enqueue({ body: chatCompletionSse(['from the backup']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    expect(h.peer.agentText(h.sessionId)).toBe('from the backup');
    expect(h.replay.requests.map((r) => (r.body as { model: string }).model)).toEqual(['e2e-model', 'e2e-model', 'e2e-backup']);
    const events = h.peer.received.filter((m) => m.method === 'agentd/event').map((m) => m.params.event);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: 'local/e2e-model', to: 'backup/e2e-backup' });
  });
});
