import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer } from '../../src/loop/estimate-tokens.js';
import type { AssistantMessage, ModelMessage, ToolMessage, UserMessage } from '../../src/providers/message.js';
import { isValidCut, selectCompactionRange } from '../../src/loop/select-compaction-range.js';

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const calls = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool_call', id, name: 'read', args: { path: `${id}.ts` } })),
});
const results = (...ids: string[]): ToolMessage => ({
  role: 'tool',
  content: ids.map((id) => ({ type: 'tool_result', toolCallId: id, toolName: 'read', content: [{ type: 'text', text: `contents of ${id}` }] })),
});

/** user, then `rounds` × (assistant call, tool result), then a final answer. */
function toolHeavyTurn(prefix: string, rounds: number): ModelMessage[] {
  const messages: ModelMessage[] = [user(`${prefix}: please look`)];
  for (let i = 0; i < rounds; i++) messages.push(calls(`${prefix}${i}`), results(`${prefix}${i}`));
  messages.push(answer(`${prefix}: done`));
  return messages;
}


// The tokenizer loads on demand in the daemon; these tests count with it.
beforeAll(() => loadTokenizer());
describe('selectCompactionRange', () => {
  it('keeps the last 10 messages by default and summarizes the rest, cutting before a user message', () => {
    const history = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? user(`q${i}`) : answer(`a${i}`)));
    const range = selectCompactionRange(history, { keepTokens: 0 })!;
    expect(range.keep).toHaveLength(10);
    expect(range.summarize).toHaveLength(20);
    expect(range.keep[0]).toEqual(user('q20'));
    expect([...range.summarize, ...range.keep]).toEqual(history);
  });

  it('keeps more messages until about keepTokens tokens are kept', () => {
    const big = 'word '.repeat(1_000); // ~1 000 tokens
    const history = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? user(`${i} ${big}`) : answer(`a${i}`)));
    const range = selectCompactionRange(history, { keepMessages: 2, keepTokens: 5_000 })!;
    // Five big user messages are needed to pass 5 000 tokens; the cut is before a user message.
    expect(range.keep[0]!.role).toBe('user');
    expect(range.keep.length).toBeGreaterThanOrEqual(9);
    expect(range.keep.length).toBeLessThanOrEqual(11);
  });

  it('never separates a tool call from its result', () => {
    const history = [...toolHeavyTurn('a', 6), ...toolHeavyTurn('b', 6)];
    for (let keepMessages = 1; keepMessages < history.length; keepMessages++) {
      const range = selectCompactionRange(history, { keepMessages, keepTokens: 0 });
      if (range === undefined) continue;
      expect(range.keep.length).toBeGreaterThanOrEqual(keepMessages);
      const first = range.keep[0]!;
      expect(first.role).not.toBe('tool');
      if (first.role === 'assistant') expect(range.summarize.at(-1)!.role).toBe('tool');
      // Every tool message kept has its calling assistant message kept too.
      const keptCallIds = new Set(range.keep.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : [])) : [])));
      for (const message of range.keep) {
        if (message.role === 'tool') for (const result of message.content) expect(keptCallIds.has(result.toolCallId)).toBe(true);
      }
    }
  });

  it('may cut before an assistant message that follows a complete tool exchange', () => {
    const history = toolHeavyTurn('a', 8); // 1 + 16 + 1 = 18 messages
    const range = selectCompactionRange(history, { keepMessages: 3, keepTokens: 0 })!;
    // Three from the end is a call that follows a complete exchange: a valid cut.
    expect(range.keep[0]).toEqual(calls('a7'));
    expect(range.summarize.at(-1)).toEqual(results('a6'));
    // Four from the end is a tool message: the cut moves back to the call before it.
    const wider = selectCompactionRange(history, { keepMessages: 4, keepTokens: 0 })!;
    expect(wider.keep[0]).toEqual(calls('a6'));
  });

  it('does not cut after an incomplete tool exchange', () => {
    const history: ModelMessage[] = [user('go'), calls('x', 'y'), results('x'), answer('half'), user('again'), answer('ok')];
    expect(isValidCut(history, 3)).toBe(false);
    expect(isValidCut(history, 2)).toBe(false);
    expect(isValidCut(history, 4)).toBe(true);
    expect(selectCompactionRange(history, { keepMessages: 2, keepTokens: 0 })!.keep[0]).toEqual(user('again'));
    // Keeping 3 would need a cut before "half" or inside the broken exchange: none is valid.
    expect(selectCompactionRange(history, { keepMessages: 3, keepTokens: 0 })).toBeUndefined();
  });

  it('returns undefined when nothing is worth summarizing', () => {
    const short = [user('hi'), answer('hello')];
    expect(selectCompactionRange(short)).toBeUndefined();
    expect(selectCompactionRange([])).toBeUndefined();
    // The only message a cut could fall before (the user's) is the first one.
    const single = toolHeavyTurn('a', 1); // user, call, result, answer
    expect(selectCompactionRange(single, { keepMessages: 4, keepTokens: 0 })).toBeUndefined();
  });

  it('rejects bad options with a clear message', () => {
    expect(() => selectCompactionRange([user('x')], { keepMessages: -1 })).toThrow('keepMessages must be a whole number >= 0, got -1');
    expect(() => selectCompactionRange([user('x')], { keepTokens: Number.NaN })).toThrow('keepTokens');
  });
});
