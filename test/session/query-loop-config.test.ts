import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { startLoopHarness, toolResults, type LoopHarness } from '../support/loop-harness.js';

const overflow = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { message: "This model's maximum context length is 4000 tokens. However, your messages resulted in 5000 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } }),
};
const longText = (i: number): string => `note ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(25)}`;

describe('the loop under configuration', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('answers a context-overflow error by compacting and retrying once', async () => {
    h = await startLoopHarness({ providers: { local: { models: { 'e2e-model': { contextWindow: 4000, maxOutputTokens: 500 } } } } });
    for (let i = 0; i < 6; i++) {
      h.replay.enqueue({ body: chatCompletionSse([`ok ${i}`]) });
      await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: longText(i) }] });
    }
    h.replay.enqueue(overflow);
    h.replay.enqueue({ body: chatCompletionSse(['Summary of notes 0 to 2.']) });
    h.replay.enqueue({ body: chatCompletionSse(['fits now']) });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'one more' }] })).toEqual({ stopReason: 'end_turn' });
    expect(h.replay.requests).toHaveLength(9);
    expect(h.requestBody(7).tools ?? []).toEqual([]);
    expect(JSON.stringify(h.requestBody(8).messages)).toContain('<summary of the earlier conversation>');
    expect(h.peer.agentText(h.sessionId)).toMatch(/fits now$/);
  });

  it('compacts on session/compact while idle', async () => {
    h = await startLoopHarness({ providers: { local: { models: { 'e2e-model': { contextWindow: 4000, maxOutputTokens: 500 } } } } });
    for (let i = 0; i < 6; i++) {
      h.replay.enqueue({ body: chatCompletionSse([`ok ${i}`]) });
      await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: longText(i) }] });
    }
    h.replay.enqueue({ body: chatCompletionSse(['The user wrote notes 0 to 5.']) });
    expect(await h.peer.call('session/compact', { sessionId: h.sessionId })).toEqual({ compacted: true });
    h.replay.enqueue({ body: chatCompletionSse(['after']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'next' }] });
    const messages = JSON.stringify(h.requestBody(7).messages);
    expect(messages).toContain('The user wrote notes 0 to 5.');
    expect(messages).not.toContain('note 0:');
  });

  it('switches the model with session/set_config_option and refuses an unknown provider', async () => {
    h = await startLoopHarness({ providers: { other: { type: 'openai-chat', baseUrl: '{REPLAY}/v1' } } });
    const answer = await h.peer.call('session/set_config_option', { sessionId: h.sessionId, configId: 'model', value: 'other/second-model' });
    expect(answer.configOptions.find((o: { id: string }) => o.id === 'model')!.currentValue).toBe('other/second-model');
    h.replay.enqueue({ body: chatCompletionSse(['hi']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'x' }] });
    expect((h.requestBody(0) as unknown as { model: string }).model).toBe('second-model');
    const bad = await h.peer.request('session/set_config_option', { sessionId: h.sessionId, configId: 'model', value: 'nowhere/x' });
    expect(bad.error!.code).toBe(-32602);
    expect(bad.error!.message).toMatch(/nowhere/);
  });

  it('sends the configured thinking level to a reasoning model', async () => {
    h = await startLoopHarness({
      model: 'openai/o3-mini',
      thinking: 'high',
      providers: { openai: { type: 'openai-chat', baseUrl: '{REPLAY}/v1', apiKey: 'sk-test-not-a-real-key' } },
    });
    h.replay.enqueue({ body: chatCompletionSse(['thought about it']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'think' }] });
    expect(h.requestBody(0)).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high' });
  });

  it('lets config describe a compatible server\'s quirks, e.g. which of its models reason', async () => {
    h = await startLoopHarness({ model: 'local/qwq-32b', thinking: 'low', providers: { local: { quirks: { reasoningModels: '^qwq', maxTokensField: 'max_completion_tokens' } } } });
    h.replay.enqueue({ body: chatCompletionSse(['hmm']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'think' }] });
    const body = h.requestBody(0) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'qwq-32b', reasoning_effort: 'low' });
    expect(body.max_completion_tokens).toEqual(expect.any(Number));
    expect(body.max_tokens).toBeUndefined();
  });

  it('stops a tool call at the configured time limit and kills it', async () => {
    h = await startLoopHarness({ permissions: { allow: ['bash'] }, tools: { timeoutMs: 1000 } });
    h.replay.enqueue({ body: chatToolCallSse([{ id: 'call_slow', name: 'bash', arguments: { command: 'sleep 30' } }]) });
    h.replay.enqueue({ body: chatCompletionSse(['too slow']) });
    await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'wait' }] });
    expect(toolResults(h.requestBody(1)).call_slow).toMatch(/Timed out after 1000 ms/);
  });

  it('in manager mode starts sessions in the manager agent, which may only delegate and plan', async () => {
    h = await startLoopHarness({ subagents: { manager: true, maxConcurrent: 2 } });
    const created = await h.peer.call('session/new', { cwd: h.workspace, mcpServers: [] });
    expect(created.modes!.currentModeId).toBe('manager');
    h.replay.enqueue({ body: chatCompletionSse(['I will delegate.']) });
    await h.peer.call('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'fix the bug' }] });
    const offered = (h.requestBody(0).tools ?? []).map((t) => t.function.name).sort();
    expect(offered).toEqual(['agent', 'todo']);
    expect(JSON.stringify(h.requestBody(0).messages[0])).toMatch(/manager mode/);
  });
});
