import { aroundTheMiddle, benchToolCall, textPieces, type BenchTranscript } from './bench-transcript.js';

/**
 * A Chat Completions stream with `stream_options.include_usage`, as api.openai.com sends
 * it (https://platform.openai.com/docs/api-reference/chat-streaming/streaming): `data:`
 * lines of chat.completion.chunk, a role chunk first, the tool call by `index` with its
 * id and name on the first piece, `finish_reason` on its own chunk, then the usage chunk
 * with empty `choices`, then `data: [DONE]`.
 */
export function openAIChatTranscript(events = 5000): BenchTranscript {
  const tool = benchToolCall(24);
  const callId = 'call_q2Lx9VbN3mTz7RkD1sPa';
  // role, tool start, tool deltas, finish, usage, [DONE]
  const fixed = 1 + 1 + tool.deltas.length + 1 + 1 + 1;
  const pieces = textPieces(events - fixed, 1);
  const [before, after] = aroundTheMiddle(pieces);
  const base = {
    id: 'chatcmpl-CbEnCh0123456789abcdefXYZ',
    object: 'chat.completion.chunk',
    created: 1763474589,
    model: 'gpt-4.1-mini-2025-04-14',
    service_tier: 'default',
    system_fingerprint: 'fp_6f2eabb9a5',
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    frame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null, obfuscation: 'k3Vd' });

  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const text of before) frames.push(chunk({ content: text }));
  frames.push(chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: tool.name, arguments: '' } }] }));
  for (const piece of tool.deltas) frames.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  for (const text of after) frames.push(chunk({ content: text }));
  frames.push(chunk({}, 'tool_calls'));
  frames.push(
    frame({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: 1250,
        completion_tokens: pieces.length + tool.deltas.length,
        total_tokens: 1250 + pieces.length + tool.deltas.length,
        prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      obfuscation: 'k3Vd',
    }),
  );
  frames.push('data: [DONE]\n\n');
  return {
    protocol: 'openai-chat',
    bytes: new TextEncoder().encode(frames.join('')),
    wireEvents: frames.length,
    text: pieces.join(''),
    toolCall: { id: callId, name: tool.name, arguments: tool.arguments },
  };
}

function frame(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}
