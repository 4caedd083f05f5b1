import type { StopReason, UnifiedStopReason } from '../stop-reason.js';

/**
 * Gemini `finishReason` → unified stop reason, from the FinishReason enum at
 * https://ai.google.dev/api/generate-content#FinishReason:
 * - STOP: natural end or a stop sequence; `tool_use` when the response carried function
 *   calls, because Gemini reports STOP for those too.
 * - MAX_TOKENS: the maxOutputTokens cap.
 * - SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, IMAGE_SAFETY, LANGUAGE: a
 *   filter or policy stopped the answer.
 * - MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS: the model produced
 *   a call that could not be used; OTHER and FINISH_REASON_UNSPECIFIED: no proper stop.
 * Unknown future values keep their raw value and count as a finished turn.
 */
const UNIFIED: Record<string, UnifiedStopReason> = {
  STOP: 'end_turn',
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'refusal',
  RECITATION: 'refusal',
  BLOCKLIST: 'refusal',
  PROHIBITED_CONTENT: 'refusal',
  SPII: 'refusal',
  IMAGE_SAFETY: 'refusal',
  LANGUAGE: 'refusal',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  OTHER: 'error',
  FINISH_REASON_UNSPECIFIED: 'error',
};

export function mapGeminiStopReason(finishReason: string, sawFunctionCalls: boolean): StopReason {
  const unified = UNIFIED[finishReason] ?? 'end_turn';
  return { unified: unified === 'end_turn' && sawFunctionCalls ? 'tool_use' : unified, raw: finishReason };
}

/**
 * `promptFeedback.blockReason` (https://ai.google.dev/api/generate-content#BlockReason):
 * the prompt itself was blocked, so there is no candidate at all; always a refusal.
 */
export function mapGeminiBlockReason(blockReason: string): StopReason {
  return { unified: 'refusal', raw: blockReason };
}
