import type { ModelRequest, ThinkingLevel } from '../request.js';
import type { CohereToolNames } from './cohere-tool-names.js';
import type { CohereChatBody } from './cohere-types.js';
import { convertToCohereMessages } from './convert-to-cohere-messages.js';
import { prepareCohereTools } from './prepare-cohere-tools.js';

/**
 * Cohere's reasoning models, which take `thinking` (https://docs.cohere.com/docs/reasoning;
 * Command A Reasoning and Command A+ list the Reasoning capability on their model pages).
 * Other models are sent no `thinking` field.
 */
const REASONING_MODELS = /^command-a-(reasoning|plus)/;

/**
 * `thinking.token_budget` per level; `high` sends none, which is unlimited thinking, the
 * setting Cohere recommends. `request.thinkingBudgets` overrides these.
 */
export const COHERE_THINKING_BUDGETS: Record<Exclude<ThinkingLevel, 'off' | 'high'>, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
};

/** Unified request → the JSON body POSTed to `/v2/chat` with `stream: true` (pure). */
export function buildCohereBody(request: ModelRequest, names: CohereToolNames): CohereChatBody {
  // Tools first, so their names are spelled before the history's calls use them.
  const tools = prepareCohereTools(request.tools, names);
  const body: CohereChatBody = { model: request.model, messages: convertToCohereMessages(request.system, request.messages, names), stream: true };
  if (tools !== undefined) body.tools = tools;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop_sequences = request.stopSequences;
  const thinking = thinkingFor(request);
  if (thinking !== undefined) body.thinking = thinking;
  return body;
}

function thinkingFor(request: ModelRequest): CohereChatBody['thinking'] {
  const level = request.thinking;
  if (level === undefined || !REASONING_MODELS.test(request.model)) return undefined;
  if (level === 'off') return { type: 'disabled' };
  const budget = request.thinkingBudgets?.[level] ?? (level === 'high' ? undefined : COHERE_THINKING_BUDGETS[level]);
  return budget === undefined ? { type: 'enabled' } : { type: 'enabled', token_budget: budget };
}
