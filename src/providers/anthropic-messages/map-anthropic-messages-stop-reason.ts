import type { StopReason, UnifiedStopReason } from '../stop-reason.js';

/**
 * Anthropic `stop_reason` → unified stop reason.
 * Values from https://docs.anthropic.com/en/api/handling-stop-reasons and
 * https://docs.anthropic.com/en/api/messages (response `stop_reason`):
 * - `end_turn`, `stop_sequence`: the answer is complete.
 * - `tool_use`: the model waits for tool results.
 * - `max_tokens`: the `max_tokens` cap cut the answer off.
 * - `model_context_window_exceeded`: generation hit the model's context window; the docs
 *   describe it as the context-window counterpart of `max_tokens` (the answer is cut off,
 *   not rejected), so it recovers the same way.
 * - `pause_turn`: a long server-tool turn was paused; send the message back to continue.
 * - `refusal`: the streaming classifiers declined to continue.
 * Unknown future values keep their raw value and count as a finished turn.
 */
const UNIFIED: Record<string, UnifiedStopReason> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  pause_turn: 'pause',
  refusal: 'refusal',
};

export function mapAnthropicMessagesStopReason(raw: string | null | undefined): StopReason {
  const value = raw ?? undefined;
  return { unified: (value !== undefined ? UNIFIED[value] : undefined) ?? 'end_turn', raw: value };
}
