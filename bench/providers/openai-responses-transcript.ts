import { aroundTheMiddle, benchToolCall, textPieces, type BenchTranscript } from './bench-transcript.js';

/**
 * A Responses API stream as api.openai.com sends it
 * (https://platform.openai.com/docs/api-reference/responses-streaming): named events
 * with a `sequence_number`, a message item with output_text deltas, a function_call item
 * with argument deltas, a second message item, and `response.completed` carrying the
 * whole response, output included (the largest event of the stream).
 */
export function openAIResponsesTranscript(events = 5000): BenchTranscript {
  const tool = benchToolCall(24);
  const callId = 'call_Rb7nQ2xL5pVt9KmW3zHa';
  const callItemId = 'fc_0bench00000000000000000000000000000001';
  // created, in_progress, 2 × 5 per message item, 3 for the call item, completed
  const fixed = 2 + 10 + 3 + 1;
  const pieces = textPieces(events - fixed - tool.deltas.length, 3);
  const [before, after] = aroundTheMiddle(pieces);
  const frames: string[] = [];
  const send = (type: string, fields: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: frames.length, ...fields })}\n\n`);
  };
  const response = (status: string, output: unknown[], usage: unknown): Record<string, unknown> => ({
    id: 'resp_0bench000000000000000000000000000000000000001',
    object: 'response',
    created_at: 1763474589,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: 'gpt-5.1-2025-11-13',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'none', summary: null },
    store: false,
    temperature: 1.0,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1.0,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  });

  const outputText = (text: string): Record<string, unknown> => ({ type: 'output_text', annotations: [], logprobs: [], text });
  const message = (id: string, text: string): Record<string, unknown> => ({ id, type: 'message', status: 'completed', content: [outputText(text)], role: 'assistant' });
  const call = (status: string, args: string): Record<string, unknown> => ({ id: callItemId, type: 'function_call', status, arguments: args, call_id: callId, name: tool.name });

  const messageItem = (outputIndex: number, id: string, texts: string[]): void => {
    const text = texts.join('');
    send('response.output_item.added', { output_index: outputIndex, item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
    send('response.content_part.added', { item_id: id, output_index: outputIndex, content_index: 0, part: outputText('') });
    for (const delta of texts) {
      send('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta, logprobs: [], obfuscation: 'Zp4q' });
    }
    send('response.output_text.done', { item_id: id, output_index: outputIndex, content_index: 0, text, logprobs: [] });
    send('response.content_part.done', { item_id: id, output_index: outputIndex, content_index: 0, part: outputText(text) });
    send('response.output_item.done', { output_index: outputIndex, item: message(id, text) });
  };

  send('response.created', { response: response('in_progress', [], null) });
  send('response.in_progress', { response: response('in_progress', [], null) });
  messageItem(0, 'msg_0bench00000000000000000000000000000000', before);
  send('response.output_item.added', { output_index: 1, item: call('in_progress', '') });
  for (const delta of tool.deltas) send('response.function_call_arguments.delta', { item_id: callItemId, output_index: 1, delta, obfuscation: 'Zp4q' });
  send('response.function_call_arguments.done', { item_id: callItemId, output_index: 1, arguments: tool.arguments });
  send('response.output_item.done', { output_index: 1, item: call('completed', tool.arguments) });
  messageItem(2, 'msg_0bench00000000000000000000000000000002', after);
  const output = [message('msg_0bench00000000000000000000000000000000', before.join('')), call('completed', tool.arguments), message('msg_0bench00000000000000000000000000000002', after.join(''))];
  const outputTokens = pieces.length + tool.deltas.length;
  send('response.completed', {
    response: response('completed', output, {
      input_tokens: 1250,
      input_tokens_details: { cached_tokens: 1024 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 1250 + outputTokens,
    }),
  });
  return {
    protocol: 'openai-responses',
    bytes: new TextEncoder().encode(frames.join('')),
    wireEvents: frames.length,
    text: pieces.join(''),
    toolCall: { id: callId, name: tool.name, arguments: tool.arguments },
  };
}
