import type { ModelRequest, ThinkingLevel } from '../request.js';
import type { AnthropicMessage, AnthropicMessagesBody, AnthropicTextBlock } from './anthropic-messages-types.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { prepareAnthropicMessagesTools } from './prepare-anthropic-messages-tools.js';

/** Default `budget_tokens` per thinking level, overridable by `request.thinkingBudgets`. */
export const ANTHROPIC_THINKING_BUDGETS: Record<Exclude<ThinkingLevel, 'off'>, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 32_000,
};

/** Anthropic's minimum `budget_tokens` (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking). */
const MIN_THINKING_BUDGET = 1024;

/** At most four blocks may carry `cache_control` (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). */
const MAX_CACHE_BREAKPOINTS = 4;

/** How many of the last user-side messages get a breakpoint when `request.cacheMessages` is set. */
const MESSAGE_BREAKPOINTS = 2;

export interface AnthropicMessagesBodyOptions {
  /** `max_tokens` when the request has no `maxTokens` (the API requires one). */
  defaultMaxTokens: number;
}

/** A request the protocol cannot send, with the fix in the message. */
export class AnthropicMessagesRequestError extends Error {
  override readonly name = 'AnthropicMessagesRequestError';
}

/** Unified request → the JSON body POSTed to `/v1/messages` with `stream: true`. */
export function buildAnthropicMessagesBody(request: ModelRequest, options: AnthropicMessagesBodyOptions): AnthropicMessagesBody {
  const messages = convertToAnthropicMessages(request.messages);
  const messageBreakpoints = request.cacheMessages === true ? markLastUserMessages(messages) : 0;
  const system = buildSystem(request, MAX_CACHE_BREAKPOINTS - messageBreakpoints);

  let maxTokens = request.maxTokens ?? options.defaultMaxTokens;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new AnthropicMessagesRequestError(`maxTokens must be a positive integer, got ${String(maxTokens)}; set the request's maxTokens (or the model's max output) to e.g. 8192`);
  }
  const budget = thinkingBudget(request);
  // budget_tokens must stay below max_tokens: raise max_tokens so the answer keeps the room it asked for.
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + maxTokens;

  const body: AnthropicMessagesBody = { model: request.model, max_tokens: maxTokens, stream: true, messages };
  if (system.length > 0) body.system = system;
  if (request.tools.length > 0) body.tools = prepareAnthropicMessagesTools(request.tools);
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  // Extended thinking is incompatible with a temperature setting (extended-thinking docs, "Feature compatibility").
  else if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop_sequences = request.stopSequences;
  return body;
}

function buildSystem(request: ModelRequest, breakpoints: number): AnthropicTextBlock[] {
  const blocks = request.system.filter((block) => block.text !== '');
  // Later boundaries cover longer prefixes, so when there are too many the last ones win.
  const boundaries = blocks.filter((block) => block.cacheBoundary === true);
  const marked = new Set(breakpoints > 0 ? boundaries.slice(-breakpoints) : []);
  return blocks.map((block) => {
    const text: AnthropicTextBlock = { type: 'text', text: block.text };
    if (marked.has(block)) text.cache_control = { type: 'ephemeral' };
    return text;
  });
}

/** Put `cache_control` on the last block of the last two user-side messages; returns how many were marked. */
function markLastUserMessages(messages: AnthropicMessage[]): number {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < MESSAGE_BREAKPOINTS; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const last = message.content.at(-1);
    if (last === undefined) continue;
    last.cache_control = { type: 'ephemeral' };
    marked++;
  }
  return marked;
}

function thinkingBudget(request: ModelRequest): number | undefined {
  const level = request.thinking;
  if (level === undefined || level === 'off') return undefined;
  const budget = request.thinkingBudgets?.[level] ?? ANTHROPIC_THINKING_BUDGETS[level];
  if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
    throw new AnthropicMessagesRequestError(
      `thinkingBudgets.${level} is ${String(budget)}, but Anthropic needs an integer budget of at least ${MIN_THINKING_BUDGET} tokens; raise it or pick another thinking level`,
    );
  }
  return budget;
}
