import type { ModelMessage, ToolMessage, ToolResultPart } from '../providers/message.js';

/** Characters of tool-result text a request carries by default. */
export const DEFAULT_TOOL_RESULT_BUDGET_CHARS = 50_000;

/** What the model sees instead of an old tool result that no longer fits the budget. */
export function omittedToolResultText(chars: number): string {
  return `[tool result of ${chars} characters omitted to save context; re-run the tool if you need it]`;
}

/**
 * Shrinks old tool results for one request. Walking from the newest tool result to the
 * oldest, results are kept while their text fits in `maxChars`; from the first one that
 * does not fit, every older result is replaced by a short marker (its toolCallId,
 * toolName and isError stay, so the transcript remains valid). The newest tool message
 * is always kept whole, since the model has not seen it yet. Results shorter than the
 * marker are left alone: replacing them would save nothing.
 *
 * Returns a new array and never changes the input: the store keeps every result whole,
 * and untouched messages are shared by reference.
 */
export function budgetToolResults(history: readonly ModelMessage[], maxChars = DEFAULT_TOOL_RESULT_BUDGET_CHARS): ModelMessage[] {
  if (!Number.isFinite(maxChars) || maxChars < 0) {
    throw new RangeError(`budgetToolResults: maxChars must be a number >= 0, got ${maxChars}`);
  }
  const out = [...history];
  let total = 0;
  let exceeded = false;
  let newest = true;
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i]!;
    if (message.role !== 'tool') continue;
    if (newest) {
      newest = false;
      total += message.content.reduce((sum, result) => sum + textChars(result), 0);
      exceeded = total > maxChars;
      continue;
    }
    if (exceeded) {
      // Past the budget every result of the message is replaced, the same way each request:
      // one shared copy, so the request's conversion of it is made once too.
      let budgeted = overBudget.get(message);
      if (budgeted === undefined) {
        budgeted = omitAll(message);
        overBudget.set(message, budgeted);
      }
      out[i] = budgeted;
      continue;
    }
    // The message the budget runs out in comes out the same while the newer results do not
    // change (a turn without tool calls): the same copy, so its conversion is made once too.
    const known = atBoundary.get(message);
    if (known !== undefined && known.maxChars === maxChars && known.before === total) {
      out[i] = known.budgeted;
      total = known.after;
      exceeded = total > maxChars;
      continue;
    }
    const before = total;
    // Results of one message are counted newest last-part first, matching the walk order.
    const content = [...message.content];
    let changed = false;
    for (let j = content.length - 1; j >= 0; j--) {
      const result = content[j]!;
      const chars = textChars(result);
      if (!exceeded) {
        total += chars;
        exceeded = total > maxChars;
        if (!exceeded) continue;
      }
      const omitted = omit(result, chars);
      if (omitted === result) continue;
      content[j] = omitted;
      changed = true;
    }
    if (!changed) continue;
    const budgeted: ToolMessage = { role: 'tool', content };
    atBoundary.set(message, { maxChars, before, after: total, budgeted });
    out[i] = budgeted;
  }
  return out;
}

/**
 * The message the budget ran out in, as budgeted, with the budget and the characters newer
 * results had used before it (`before`) and after it: the same again for the same two.
 */
const atBoundary = new WeakMap<ToolMessage, { maxChars: number; before: number; after: number; budgeted: ModelMessage }>();

/** Tool messages wholly past the budget, as budgeted: messages are never changed, so neither is this. */
const overBudget = new WeakMap<ToolMessage, ModelMessage>();

function omitAll(message: ToolMessage): ModelMessage {
  let changed = false;
  const content = message.content.map((result) => {
    const omitted = omit(result, textChars(result));
    if (omitted !== result) changed = true;
    return omitted;
  });
  return changed ? ({ role: 'tool', content } satisfies ToolMessage) : message;
}

/** The result replaced by its marker, or itself when the marker would be no shorter. */
function omit(result: ToolResultPart, chars: number): ToolResultPart {
  const marker = omittedToolResultText(chars);
  if (chars <= marker.length) return result;
  return {
    type: 'tool_result',
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    content: [{ type: 'text', text: marker }],
    ...(result.isError !== undefined ? { isError: result.isError } : {}),
  };
}

function textChars(result: ToolResultPart): number {
  let chars = 0;
  for (const part of result.content) if (part.type === 'text') chars += part.text.length;
  return chars;
}
