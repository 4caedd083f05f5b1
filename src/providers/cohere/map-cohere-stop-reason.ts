import type { StopReason, UnifiedStopReason } from '../stop-reason.js';

/**
 * Cohere `finish_reason` → unified stop reason, from the `ChatFinishReason` enum
 * (https://docs.cohere.com/reference/chat-stream, `message-end`):
 * - COMPLETE, STOP_SEQUENCE: the answer is complete (`tool_use` when the response called
 *   tools, whatever the value says).
 * - MAX_TOKENS: `max_tokens` or the model's context length cut the answer off.
 * - TOOL_CALL: the model waits for tool results.
 * - ERROR, TIMEOUT: the generation failed; the parser ends such a stream with an error
 *   event, so they are listed here only for completeness.
 * Unknown future values keep their raw value and count as a finished turn.
 */
const UNIFIED: Record<string, UnifiedStopReason> = {
  COMPLETE: 'end_turn',
  STOP_SEQUENCE: 'end_turn',
  MAX_TOKENS: 'max_tokens',
  TOOL_CALL: 'tool_use',
  ERROR: 'error',
  TIMEOUT: 'error',
};

export function mapCohereStopReason(raw: string | undefined, sawToolCalls: boolean): StopReason {
  const unified = (raw !== undefined ? UNIFIED[raw] : undefined) ?? 'end_turn';
  return { unified: unified === 'end_turn' && sawToolCalls ? 'tool_use' : unified, raw };
}
