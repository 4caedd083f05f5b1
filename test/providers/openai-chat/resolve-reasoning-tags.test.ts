import { describe, expect, it } from 'vitest';
import { resolveReasoningTags } from '../../../src/providers/openai-chat/resolve-reasoning-tags.js';

const think = { open: '<think>', close: '</think>' };

describe('resolveReasoningTags', () => {
  it.each([
    ['deepseek-ai/DeepSeek-R1', true],
    ['deepseek-ai/DeepSeek-R1-0528', true],
    ['deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', true],
    ['deepseek-r1:7b', true],
    ['DeepSeek-R1-Distill-Llama-70B-Q4_K_M.gguf', true],
    ['perplexity-ai/r1-1776', true],
    ['Qwen/QwQ-32B', true],
    ['qwq', true],
    ['Qwen/Qwen3-235B-A22B-Thinking-2507', true],
    ['Qwen/Qwen3-8B', false],
    ['qwen3:30b-a3b', false],
  ])('reads <think> for the known reasoning family %s (startsInside %s)', (model, startsInside) => {
    expect(resolveReasoningTags(undefined, model)).toEqual({ ...think, startsInside });
  });

  it.each(['gpt-4.1', 'llama3.1:8b', 'deepseek-chat', 'deepseek-v3', 'Qwen/QwQ-32B-Preview', 'qwen2.5-coder:7b'])('reads no tags for %s unless configured', (model) => {
    expect(resolveReasoningTags(undefined, model)).toBeUndefined();
  });

  it('turns a known family off with false', () => {
    expect(resolveReasoningTags(false, 'deepseek-r1:7b')).toBeUndefined();
  });

  it('takes a tag name, keeping what is known of the family for startsInside', () => {
    expect(resolveReasoningTags('thought', 'my-model')).toEqual({ open: '<thought>', close: '</thought>', startsInside: false });
    expect(resolveReasoningTags('think', 'deepseek-r1:14b')).toEqual({ ...think, startsInside: true });
  });

  it('takes the tags spelled out, with startsInside when given', () => {
    expect(resolveReasoningTags({ open: '[THINK]', close: '[/THINK]' }, 'magistral')).toEqual({ open: '[THINK]', close: '[/THINK]', startsInside: false });
    expect(resolveReasoningTags({ ...think, startsInside: false }, 'Qwen/QwQ-32B')).toEqual({ ...think, startsInside: false });
    expect(resolveReasoningTags({ ...think, startsInside: true }, 'my-tune')).toEqual({ ...think, startsInside: true });
  });
});
