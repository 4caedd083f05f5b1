import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer } from '../../src/loop/estimate-tokens.js';
import type { ModelMessage, ToolMessage } from '../../src/providers/message.js';
import { budgetToolResults, omittedToolResultText } from '../../src/loop/budget-tool-results.js';

const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool_call', id, name: 'bash', args: { command: 'ls' } }] });
const result = (id: string, chars: number, isError?: boolean): ToolMessage => ({
  role: 'tool',
  content: [
    {
      type: 'tool_result',
      toolCallId: id,
      toolName: 'bash',
      content: [{ type: 'text', text: id.repeat(Math.ceil(chars / id.length)).slice(0, chars) }],
      ...(isError !== undefined ? { isError } : {}),
    },
  ],
});

function exchange(id: string, chars: number, isError?: boolean): ModelMessage[] {
  return [call(id), result(id, chars, isError)];
}


// The tokenizer loads on demand in the daemon; these tests count with it.
beforeAll(() => loadTokenizer());
describe('budgetToolResults', () => {
  it('keeps everything while the total fits', () => {
    const history: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, ...exchange('a', 10_000), ...exchange('b', 10_000)];
    const out = budgetToolResults(history, 50_000);
    expect(out).toEqual(history);
    expect(out).not.toBe(history);
    out.forEach((message, i) => expect(message).toBe(history[i]));
  });

  it('replaces older results once the total passes the budget, newest kept, ids and names kept', () => {
    const history: ModelMessage[] = [...exchange('a', 30_000, true), ...exchange('b', 30_000), ...exchange('c', 20_000), ...exchange('d', 20_000)];
    const frozen = structuredClone(history);
    const out = budgetToolResults(history, 50_000);
    // d (20k) + c (20k) = 40k fit; b would make 70k: b and everything older is omitted.
    expect(out[7]).toBe(history[7]);
    expect(out[5]).toBe(history[5]);
    expect(out[3]).toEqual({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'b', toolName: 'bash', content: [{ type: 'text', text: omittedToolResultText(30_000) }] }],
    });
    expect(out[1]).toEqual({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'a', toolName: 'bash', isError: true, content: [{ type: 'text', text: omittedToolResultText(30_000) }] }],
    });
    expect(omittedToolResultText(30_000)).toBe('[tool result of 30000 characters omitted to save context; re-run the tool if you need it]');
    expect(history).toEqual(frozen);
  });

  it('always keeps the newest tool message whole, even over the budget', () => {
    const history: ModelMessage[] = [...exchange('a', 2_000), ...exchange('b', 80_000)];
    const out = budgetToolResults(history, 50_000);
    expect(out[3]).toBe(history[3]);
    expect((out[1] as ToolMessage).content[0]!.content).toEqual([{ type: 'text', text: omittedToolResultText(2_000) }]);
  });

  it('leaves results shorter than the marker alone', () => {
    const history: ModelMessage[] = [...exchange('a', 40), ...exchange('b', 60_000)];
    const out = budgetToolResults(history, 50_000);
    expect(out[1]).toBe(history[1]);
  });

  it('budgets each result of a multi-result tool message separately', () => {
    const multi: ToolMessage = {
      role: 'tool',
      content: [result('x', 30_000).content[0]!, result('y', 15_000).content[0]!],
    };
    const history: ModelMessage[] = [
      { role: 'assistant', content: [{ type: 'tool_call', id: 'x', name: 'bash', args: {} }, { type: 'tool_call', id: 'y', name: 'bash', args: {} }] },
      multi,
      ...exchange('z', 10_000),
    ];
    const out = budgetToolResults(history, 30_000);
    const kept = out[1] as ToolMessage;
    // z (10k) + y (15k) = 25k fit; x would make 55k.
    expect(kept.content[1]).toBe(multi.content[1]);
    expect(kept.content[0]!.content).toEqual([{ type: 'text', text: omittedToolResultText(30_000) }]);
  });

  it('gives a message wholly past the budget the same budgeted copy on every request, and the same content as a fresh walk', () => {
    const history: ModelMessage[] = [...exchange('a', 30_000), ...exchange('b', 30_000), ...exchange('c', 40_000), ...exchange('d', 20_000)];
    const first = budgetToolResults(history, 50_000);
    const second = budgetToolResults([...history, ...exchange('e', 100)], 50_000);
    // d + c pass 50k at c (the boundary, rebuilt each time); b and a are wholly past it.
    expect(second[1]).toBe(first[1]);
    expect(second[3]).toBe(first[3]);
    expect(first[1]).not.toBe(history[1]);
    expect(second.slice(0, 8)).toEqual(budgetToolResults(structuredClone(history), 50_000));
    expect((first[1] as ToolMessage).content[0]!.content).toEqual([{ type: 'text', text: omittedToolResultText(30_000) }]);
  });

  it('gives the message the budget runs out in the same copy while the newer results stay, a new one when they change', () => {
    const history: ModelMessage[] = [...exchange('a', 30_000), ...exchange('c', 40_000), ...exchange('d', 20_000)];
    const first = budgetToolResults(history, 50_000);
    // A turn without tool calls: the results newer than c are the same, so is c's copy.
    const again = budgetToolResults([...history, { role: 'user', content: [{ type: 'text', text: 'thanks' }] }], 50_000);
    expect(first[3]).not.toBe(history[3]);
    expect(again[3]).toBe(first[3]);
    // A newer result added, another budget: made afresh, as a fresh walk makes it.
    const grown = [...history, ...exchange('e', 5_000)];
    const later = budgetToolResults(grown, 50_000);
    expect(later[3]).not.toBe(first[3]);
    expect(later).toEqual(budgetToolResults(structuredClone(grown), 50_000));
    const wider = budgetToolResults(history, 70_000);
    expect(wider[3]).toBe(history[3]);
    expect(budgetToolResults(history, 50_000)[3]).toEqual((budgetToolResults(structuredClone(history), 50_000))[3]);
  });

  it('rejects a negative budget', () => {
    expect(() => budgetToolResults([], -1)).toThrow('maxChars must be a number >= 0, got -1');
  });
});
