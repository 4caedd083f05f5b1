import type { StopReason } from '../stop-reason.js';

/**
 * Map a Chat Completions `finish_reason` to the unified stop reason. Values follow the
 * API reference (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices):
 * `stop`, `length`, `tool_calls`, `content_filter`, `function_call` (deprecated).
 * Compatible servers answer `stop` even after tool calls (Ollama, some vLLM parsers,
 * Gemini's compatibility layer), so a response that called tools is `tool_use` whatever
 * the raw value says, unless it was cut by the length limit.
 */
export function mapOpenAIChatStopReason(finishReason: string | undefined, hadToolCalls: boolean, refused: boolean): StopReason {
  const raw = finishReason;
  switch (finishReason) {
    case 'length':
      return { unified: 'max_tokens', raw };
    case 'content_filter':
      return { unified: 'refusal', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool_use', raw };
    default:
      if (hadToolCalls) return { unified: 'tool_use', raw };
      // OpenAI streams a refusal in `delta.refusal` and then finishes with `stop`.
      if (refused) return { unified: 'refusal', raw };
      return { unified: 'end_turn', raw };
  }
}
