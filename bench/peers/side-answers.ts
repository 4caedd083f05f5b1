import type { VendorProtocol } from './answer-streams.js';

/**
 * What the loopback vendor answers to requests that are not the prompt's model request
 * (title generation, quota checks, token counting, model lists), in the shape each
 * vendor's API documents, so that a peer proceeds as it would against the real vendor.
 */

/** A short non-streaming completion (`stream` absent or false), e.g. a title request. */
export function shortCompletion(protocol: VendorProtocol, model: string, text: string): unknown {
  switch (protocol) {
    case 'openai-chat':
      return {
        id: 'chatcmpl-side',
        object: 'chat.completion',
        created: 1763474589,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 50, completion_tokens: 3, total_tokens: 53 },
      };
    case 'openai-responses':
      return {
        id: 'resp_side',
        object: 'response',
        created_at: 1763474589,
        status: 'completed',
        model,
        output: [{ id: 'msg_side', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text }] }],
        usage: { input_tokens: 50, output_tokens: 3, total_tokens: 53 },
      };
    case 'anthropic-messages':
      return {
        id: 'msg_side',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 3 },
      };
    case 'gemini':
      return {
        candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 3, totalTokenCount: 53 },
        modelVersion: model,
      };
  }
}

/**
 * The text of a side answer. gemini-cli asks its helper model for JSON by schema
 * (`generationConfig.responseJsonSchema`/`responseSchema`, e.g. its next-speaker check
 * and model router); one object carrying the fields those schemas ask for lets it go on.
 */
export function sideText(wantsJson: boolean): string {
  return wantsJson ? JSON.stringify({ reasoning: 'bench', next_speaker: 'user', model_choice: 'flash' }) : 'Bench';
}

/** A model list for `GET …/models`, in the protocol's shape. */
export function modelList(protocol: VendorProtocol, model: string): unknown {
  if (protocol === 'gemini') {
    return { models: [{ name: `models/${model}`, displayName: model, inputTokenLimit: 1_000_000, outputTokenLimit: 65_536, supportedGenerationMethods: ['generateContent', 'countTokens'] }] };
  }
  if (protocol === 'anthropic-messages') {
    return { data: [{ type: 'model', id: model, display_name: model, created_at: '2025-01-01T00:00:00Z' }], has_more: false, first_id: model, last_id: model };
  }
  return { object: 'list', data: [{ id: model, object: 'model', created: 1763474589, owned_by: 'bench' }] };
}

/** A token count (`count_tokens` / `:countTokens`). */
export function tokenCount(protocol: VendorProtocol): unknown {
  return protocol === 'gemini' ? { totalTokens: 100 } : { input_tokens: 100 };
}
