import type { StopReason } from '../stop-reason.js';

/** What the parser saw of one response, enough to name why it ended. */
export interface OpenAIResponsesFinish {
  /** `completed` or `incomplete` (the final event's `response.status`). */
  status: 'completed' | 'incomplete';
  /** `response.incomplete_details.reason` when incomplete. */
  incompleteReason?: string | undefined;
  /** At least one `function_call` output item was emitted. */
  sawFunctionCall: boolean;
  /** At least one `refusal` content part was emitted. */
  sawRefusal: boolean;
}

/**
 * The Responses API has no finish_reason: a response is `completed` or `incomplete` with
 * `incomplete_details.reason` of `max_output_tokens` or `content_filter`
 * (https://platform.openai.com/docs/api-reference/responses/object). A completed response
 * that called functions waits for their outputs; one whose message is a `refusal` part
 * declined to answer (https://platform.openai.com/docs/guides/structured-outputs#refusals).
 * `raw` keeps the vendor's value: the status, the incomplete reason, or `refusal`.
 */
export function mapOpenAIResponsesStopReason(finish: OpenAIResponsesFinish): StopReason {
  if (finish.status === 'incomplete') {
    const raw = finish.incompleteReason;
    if (raw === 'max_output_tokens') return { unified: 'max_tokens', raw };
    if (raw === 'content_filter') return { unified: 'refusal', raw };
    return { unified: 'error', raw: raw ?? 'incomplete' };
  }
  if (finish.sawRefusal) return { unified: 'refusal', raw: 'refusal' };
  if (finish.sawFunctionCall) return { unified: 'tool_use', raw: 'completed' };
  return { unified: 'end_turn', raw: 'completed' };
}
