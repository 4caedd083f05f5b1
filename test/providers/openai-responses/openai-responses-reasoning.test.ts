import { describe, expect, it } from 'vitest';
import { isOpenAIReasoningModel, openAIResponsesReasoning } from '../../../src/providers/openai-responses/openai-responses-reasoning.js';

describe('isOpenAIReasoningModel', () => {
  it('recognises o-series, GPT-5 and later, codex and gpt-oss, but not chat variants or GPT-4', () => {
    for (const id of ['o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.1', 'gpt-5.1-codex-max', 'codex-mini-latest', 'openai/gpt-oss-120b', 'gpt-6']) {
      expect(isOpenAIReasoningModel(id), id).toBe(true);
    }
    for (const id of ['gpt-4.1', 'gpt-4o-mini', 'gpt-5-chat-latest', 'gpt-5.1-chat-latest']) {
      expect(isOpenAIReasoningModel(id), id).toBe(false);
    }
  });
});

describe('openAIResponsesReasoning', () => {
  it('sends nothing for models that do not reason', () => {
    expect(openAIResponsesReasoning('gpt-4.1', 'high')).toEqual({});
  });

  it('asks for encrypted content and summaries, with the vendor default effort when no level is set', () => {
    expect(openAIResponsesReasoning('gpt-5.1', undefined)).toEqual({
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
    });
  });

  it('maps levels per model family', () => {
    const effort = (model: string, level: 'off' | 'minimal' | 'low' | 'medium' | 'high'): unknown =>
      openAIResponsesReasoning(model, level).reasoning?.effort;
    expect([effort('gpt-5.1', 'off'), effort('gpt-5.1', 'minimal'), effort('gpt-5.1', 'high')]).toEqual(['none', 'low', 'high']);
    expect([effort('gpt-5', 'off'), effort('gpt-5-mini', 'minimal'), effort('gpt-5', 'medium')]).toEqual(['minimal', 'minimal', 'medium']);
    expect([effort('o3', 'off'), effort('o4-mini', 'minimal'), effort('o3', 'low')]).toEqual(['low', 'low', 'low']);
    expect(effort('gpt-5-pro', 'low')).toBeUndefined();
  });

  it('follows an explicit reasoning flag over the id guess', () => {
    expect(openAIResponsesReasoning('my-deployment', 'low', true).reasoning).toEqual({ effort: 'low', summary: 'auto' });
    expect(openAIResponsesReasoning('gpt-5.1', 'low', false)).toEqual({});
  });
});
