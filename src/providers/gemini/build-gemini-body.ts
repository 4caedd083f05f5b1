import type { ModelRequest, ThinkingLevel } from '../request.js';
import { convertToGeminiMessages } from './convert-to-gemini-messages.js';
import type { GeminiGenerationConfig, GeminiRequestBody } from './gemini-types.js';
import { prepareGeminiTools } from './prepare-gemini-tools.js';

/**
 * Default `thinkingBudget` per level, overridable by `request.thinkingBudgets`. The top
 * stays at 24 576, the largest budget Gemini 2.5 Flash accepts (2.5 Pro goes to 32 768),
 * per https://ai.google.dev/gemini-api/docs/thinking#set-budget.
 */
export const GEMINI_THINKING_BUDGETS: Record<Exclude<ThinkingLevel, 'off'>, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 24_576,
};

/** A request the protocol cannot send, with the fix in the message. */
export class GeminiRequestError extends Error {
  override readonly name = 'GeminiRequestError';
}

/** Unified request → the JSON body POSTed to `streamGenerateContent?alt=sse`. */
export function buildGeminiBody(request: ModelRequest): GeminiRequestBody {
  const body: GeminiRequestBody = { contents: convertToGeminiMessages(request.messages) };
  const system = request.system.filter((block) => block.text !== '').map((block) => ({ text: block.text }));
  if (system.length > 0) body.systemInstruction = { parts: system };
  const tools = prepareGeminiTools(request.tools);
  if (tools.length > 0) body.tools = tools;
  const generationConfig = buildGenerationConfig(request);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

/** GenerationConfig (https://ai.google.dev/api/generate-content#generationconfig). */
function buildGenerationConfig(request: ModelRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (request.maxTokens !== undefined) {
    if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
      throw new GeminiRequestError(`maxTokens must be a positive integer, got ${String(request.maxTokens)}; set the request's maxTokens to e.g. 8192 or leave it unset`);
    }
    config.maxOutputTokens = request.maxTokens;
  }
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) config.stopSequences = request.stopSequences;
  const level = request.thinking;
  if (level === 'off') {
    // A zero budget turns thinking off on the models that allow it (ThinkingConfig docs).
    config.thinkingConfig = { thinkingBudget: 0 };
  } else if (level !== undefined) {
    const budget = request.thinkingBudgets?.[level] ?? GEMINI_THINKING_BUDGETS[level];
    // -1 asks for a dynamic budget; 0 turns thinking off (https://ai.google.dev/gemini-api/docs/thinking#set-budget).
    if (!Number.isInteger(budget) || budget < -1) {
      throw new GeminiRequestError(`thinkingBudgets.${level} is ${String(budget)}, but Gemini needs an integer thinking budget (-1 for dynamic, 0 for off, or a token count); fix the value`);
    }
    config.thinkingConfig = { thinkingBudget: budget, includeThoughts: true };
  }
  return config;
}
