import type { ThinkingLevel } from '../request.js';
import type { ResponsesReasoningEffort, ResponsesRequestBody } from './openai-responses-api-types.js';

/** The reasoning-related fields of a Responses body. */
export type OpenAIResponsesReasoningFields = Pick<ResponsesRequestBody, 'include' | 'reasoning'>;

/** The model id without a routing prefix (`openai/gpt-5` on gateways → `gpt-5`). */
function baseId(modelId: string): string {
  return (modelId.split('/').pop() ?? modelId).toLowerCase();
}

/**
 * Reasoning models by id, for when the caller does not say: the o-series, GPT-5 and later
 * (except the `-chat` variants, which do not reason), codex and gpt-oss. Sending `reasoning`
 * or `include: ['reasoning.encrypted_content']` to a model without reasoning is a 400.
 */
export function isOpenAIReasoningModel(modelId: string): boolean {
  const id = baseId(modelId);
  if (/^gpt-\d+(\.\d+)?-chat/.test(id)) return false;
  return /^(o\d|gpt-[5-9]|gpt-\d{2,}|codex|gpt-oss)/.test(id);
}

/**
 * Effort per level, from the `reasoning.effort` reference
 * (https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning):
 * gpt-5.1 and later accept none/low/medium/high (no `minimal`); gpt-5 accepts minimal but not
 * none; gpt-5-pro only high (so nothing is sent); o-series and others low/medium/high.
 */
function effortFor(modelId: string, level: ThinkingLevel): ResponsesReasoningEffort | undefined {
  const id = baseId(modelId);
  if (/^gpt-5(\.\d+)?-pro/.test(id)) return undefined;
  if (/^gpt-(5\.[1-9]|[6-9]|\d{2,})/.test(id)) {
    if (level === 'off') return 'none';
    return level === 'minimal' ? 'low' : level;
  }
  if (/^gpt-5/.test(id)) return level === 'off' ? 'minimal' : level;
  if (level === 'off' || level === 'minimal') return 'low';
  return level;
}

/**
 * For reasoning models: ask for the encrypted reasoning (the only way to carry it across
 * turns with `store: false`), readable summaries, and the effort of the requested level
 * (the vendor default when no level is given). Nothing for other models.
 */
export function openAIResponsesReasoning(
  modelId: string,
  thinking: ThinkingLevel | undefined,
  reasoningModel: boolean = isOpenAIReasoningModel(modelId),
): OpenAIResponsesReasoningFields {
  if (!reasoningModel) return {};
  const effort = thinking === undefined ? undefined : effortFor(modelId, thinking);
  return {
    include: ['reasoning.encrypted_content'],
    reasoning: effort === undefined ? { summary: 'auto' } : { effort, summary: 'auto' },
  };
}
