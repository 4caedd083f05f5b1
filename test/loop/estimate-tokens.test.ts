import { countTokens } from 'gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer } from '../../src/loop/estimate-tokens.js';
import type { ModelMessage } from '../../src/providers/message.js';
import {
  contextTokensNow,
  estimateMessageTokens,
  estimateTextTokens,
  estimateTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
} from '../../src/loop/estimate-tokens.js';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });


// The tokenizer loads on demand in the daemon; these tests count with it.
beforeAll(() => loadTokenizer());
describe('estimateTextTokens', () => {
  it('counts with the o200k_base encoding', () => {
    expect(estimateTextTokens('hello world')).toBe(countTokens('hello world'));
    expect(estimateTextTokens('')).toBe(0);
  });

  it('treats special-token text as ordinary characters instead of throwing', () => {
    expect(estimateTextTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });

  it('stays close to the whole-text count when long text is counted in slices', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(400);
    const whole = countTokens(prose);
    expect(Math.abs(estimateTextTokens(prose) - whole)).toBeLessThanOrEqual(whole * 0.01);
  });

  it('counts a long unbroken run (base64) without stalling', () => {
    const run = 'QUJD'.repeat(50_000);
    const tokens = estimateTextTokens(run);
    expect(tokens).toBeGreaterThan(run.length / 8);
    expect(tokens).toBeLessThan(run.length);
  });

  it('never splits a surrogate pair between slices', () => {
    // The odd prefix puts the 2,000-character hard cut right after a high surrogate.
    const emoji = `a${'😀'.repeat(3_000)}`;
    const sliced = estimateTextTokens(emoji);
    expect(sliced).toBe(countTokens(emoji));
  });
});

describe('estimateMessageTokens', () => {
  it('adds the per-message overhead to the text', () => {
    expect(estimateMessageTokens(user('hello world'))).toBe(MESSAGE_OVERHEAD_TOKENS + countTokens('hello world'));
  });

  it('counts each image as a fixed amount', () => {
    const message: ModelMessage = {
      role: 'user',
      content: [
        { type: 'image', data: 'iVBORw0KGgo='.repeat(1000), mimeType: 'image/png' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
    };
    expect(estimateMessageTokens(message)).toBe(MESSAGE_OVERHEAD_TOKENS + 2 * IMAGE_TOKENS);
  });

  it('counts tool-call arguments as JSON and tool results with their text and images', () => {
    const args = { path: 'src/index.ts', content: 'export const x = 1;\n'.repeat(50) };
    const call: ModelMessage = { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'write', args }] };
    expect(estimateMessageTokens(call)).toBeGreaterThanOrEqual(countTokens(JSON.stringify(args)) + MESSAGE_OVERHEAD_TOKENS);

    const result: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          toolCallId: 'c1',
          toolName: 'read',
          content: [
            { type: 'text', text: 'line one\nline two' },
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          ],
        },
      ],
    };
    expect(estimateMessageTokens(result)).toBeGreaterThan(IMAGE_TOKENS + countTokens('line one\nline two'));
  });

  it('counts a stored call without a name or arguments, and its nameless result, instead of throwing', () => {
    // What a version before normalizeToolCall stored for a Gemini call with streamed arguments.
    const call = { role: 'assistant', content: [{ type: 'tool_call', id: 'c1' }] } as unknown as ModelMessage;
    const result = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'x' }] }] } as unknown as ModelMessage;
    expect(estimateMessageTokens(call)).toBe(MESSAGE_OVERHEAD_TOKENS + 4 + countTokens('{}'));
    expect(estimateMessageTokens(result)).toBe(MESSAGE_OVERHEAD_TOKENS + 4 + countTokens('x'));
  });

  it('counts reasoning, which is replayed to the vendor', () => {
    const withThinking: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Let me think about the layout of this repository first.', signature: 'sig' },
        { type: 'text', text: 'Done.' },
      ],
    };
    const without: ModelMessage = { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] };
    expect(estimateMessageTokens(withThinking)).toBeGreaterThan(estimateMessageTokens(without) + 5);
  });
});

describe('estimateTokens and contextTokensNow', () => {
  const messages = [user('first question'), user('second question')];

  it('sums the messages', () => {
    expect(estimateTokens(messages)).toBe(estimateMessageTokens(messages[0]!) + estimateMessageTokens(messages[1]!));
    expect(estimateTokens([])).toBe(0);
  });

  it('adds the estimate of new messages to the last response’s whole context', () => {
    const usage = { inputTokens: 1_000, cacheReadTokens: 20_000, cacheWriteTokens: 500, outputTokens: 300, reasoningTokens: 100 };
    expect(contextTokensNow(usage, messages)).toBe(21_800 + estimateTokens(messages));
    expect(contextTokensNow(usage, [])).toBe(21_800);
  });

  it('is all estimate before the first response', () => {
    expect(contextTokensNow(undefined, messages)).toBe(estimateTokens(messages));
  });
});
