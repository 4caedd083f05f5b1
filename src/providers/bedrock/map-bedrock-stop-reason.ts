import type { StopReason, UnifiedStopReason } from '../stop-reason.js';

/**
 * Converse `stopReason` values (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_MessageStopEvent.html):
 * end_turn, tool_use, max_tokens, stop_sequence, guardrail_intervened, content_filtered,
 * model_context_window_exceeded. A value added later ends the turn normally.
 */
const UNIFIED: Record<string, UnifiedStopReason> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  guardrail_intervened: 'refusal',
  content_filtered: 'refusal',
};

export function mapBedrockStopReason(raw: string | undefined): StopReason {
  return { unified: raw === undefined ? 'end_turn' : (UNIFIED[raw] ?? 'end_turn'), raw };
}
