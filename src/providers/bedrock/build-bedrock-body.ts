import { ANTHROPIC_THINKING_BUDGETS } from '../anthropic-messages/build-anthropic-messages-body.js';
import type { ModelRequest } from '../request.js';
import type { BedrockConverseBody } from './bedrock-types.js';
import { BedrockRequestError, convertToBedrockMessages } from './convert-to-bedrock-messages.js';
import { prepareBedrockTools } from './prepare-bedrock-tools.js';

/** Claude's minimum thinking budget (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html). */
const MIN_THINKING_BUDGET = 1024;

/**
 * Unified request → the Converse stream body
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
 * Thinking is Claude's `thinking` in `additionalModelRequestFields`, the form Bedrock's
 * extended-thinking guide gives; other model families take no thinking setting here.
 */
export function buildBedrockBody(request: ModelRequest, modelId: string): BedrockConverseBody {
  const body: BedrockConverseBody = { messages: convertToBedrockMessages(request.messages) };
  const system = request.system.filter((block) => block.text.trim() !== '').map((block) => ({ text: block.text }));
  if (system.length > 0) body.system = system;
  if (request.tools.length > 0) body.toolConfig = { tools: prepareBedrockTools(request.tools) };

  let maxTokens = request.maxTokens;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw new BedrockRequestError(`maxTokens must be a positive integer, got ${String(maxTokens)}; set the model's max output to e.g. 8192`);
  }
  const budget = thinkingBudget(request, modelId);
  // budget_tokens must stay below maxTokens: raise maxTokens so the answer keeps its room.
  if (budget !== undefined && (maxTokens === undefined || maxTokens <= budget)) maxTokens = budget + (maxTokens ?? 4096);
  const inference: NonNullable<BedrockConverseBody['inferenceConfig']> = {};
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  // Extended thinking does not take a temperature (same guide, "Feature compatibility").
  if (request.temperature !== undefined && budget === undefined) inference.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) inference.stopSequences = request.stopSequences;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  if (budget !== undefined) body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: budget } };
  return body;
}

/** Only Claude models (ids like `anthropic.claude-…` or `us.anthropic.claude-…`) take a thinking budget. */
function thinkingBudget(request: ModelRequest, modelId: string): number | undefined {
  if (request.thinking === undefined || request.thinking === 'off' || !/(^|\.)anthropic\.claude/.test(modelId)) return undefined;
  const budget = request.thinkingBudgets?.[request.thinking] ?? ANTHROPIC_THINKING_BUDGETS[request.thinking];
  return Math.max(MIN_THINKING_BUDGET, budget);
}
