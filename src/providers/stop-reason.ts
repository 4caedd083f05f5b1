/**
 * Why a response ended, normalised across vendors. `raw` keeps the vendor's own value
 * (e.g. `length`, `MAX_TOKENS`, `max_output_tokens`) for logs and clients.
 */
export type UnifiedStopReason =
  /** The model finished its answer. */
  | 'end_turn'
  /** The model wants tool results before it continues. */
  | 'tool_use'
  /** The output token limit cut the answer off. */
  | 'max_tokens'
  /** The model or a vendor filter declined to answer. */
  | 'refusal'
  /** The vendor paused a long turn (Anthropic `pause_turn`); send the message back to continue. */
  | 'pause'
  /** The stream failed or ended without a proper stop. */
  | 'error';

export interface StopReason {
  unified: UnifiedStopReason;
  /** The vendor's own value, or undefined when it sent none. */
  raw: string | undefined;
}
