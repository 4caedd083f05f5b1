import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';

describe('a prompt larger than the model can take', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('ends the turn saying it is too large, with no compaction and no model request', async () => {
    h = await startLoopHarness({ providers: { local: { models: { 'e2e-model': { contextWindow: 4000, maxOutputTokens: 500 } } } } });
    const answer = await h.peer.request('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'the quick brown fox jumps over the lazy dog '.repeat(800) }] });
    expect(answer.error?.message).toMatch(/the prompt is too large for local\/e2e-model: about \d+ tokens, where its context window holds 4000 \(500 kept for the answer\); send a shorter prompt/);
    expect(h.replay.requests).toHaveLength(0);
    expect(JSON.stringify(h.peer.received)).not.toContain('"compaction"');
  });

  it('sends a prompt that fits, close to the window, as before', async () => {
    h = await startLoopHarness({ providers: { local: { models: { 'e2e-model': { contextWindow: 4000, maxOutputTokens: 500 } } } } });
    h.replay.enqueue({ body: chatCompletionSse(['ok']) });
    const answer = await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'the quick brown fox jumps over the lazy dog '.repeat(250) }] });
    expect(answer).toEqual({ stopReason: 'end_turn' });
    expect(h.replay.requests).toHaveLength(1);
  });
});
