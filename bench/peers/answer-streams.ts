import { textPieces } from '../providers/bench-transcript.js';

/** The wire protocols the peers speak to their vendor (agentd speaks all four). */
export type VendorProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

/**
 * An answer of text only, streamed in each vendor's wire format: the frames the loopback
 * vendor writes, one `res.write` each. Text only (no tool call, unlike
 * ../providers/*-transcript.ts): a peer that got a tool call would go and run it, and the
 * figure would be the tool's. The pieces come from the same seeded vocabulary, so JSON
 * escapes and 2-, 3- and 4-byte UTF-8 are in the stream.
 */
export interface AnswerStream {
  frames: string[];
  /** What the client must receive, concatenated from the agent_message_chunk texts. */
  text: string;
  /** Index of the frame carrying the first piece of text (after the protocol's opening events). */
  firstText: number;
}

export function answerPieces(count: number): string[] {
  // The first piece starts with a letter: an agent that trims the answer's leading space
  // would otherwise fail the text check for a reason that is not the stream.
  return ['Answer:', ...textPieces(count - 1, 11)];
}

export function answerStream(protocol: VendorProtocol, pieces: string[], model: string): AnswerStream {
  const frames =
    protocol === 'openai-chat'
      ? chatFrames(pieces, model)
      : protocol === 'openai-responses'
        ? responsesFrames(pieces, model)
        : protocol === 'anthropic-messages'
          ? anthropicFrames(pieces, model)
          : geminiFrames(pieces, model);
  // The opening events before the first text delta: Chat's role chunk; Responses' created,
  // in_progress, output_item.added, content_part.added; Anthropic's message_start,
  // content_block_start, ping; none for Gemini.
  const firstText = { 'openai-chat': 1, 'openai-responses': 4, 'anthropic-messages': 3, gemini: 0 }[protocol];
  return { frames, text: pieces.join(''), firstText };
}

/** Chat Completions chunks (as ../providers/openai-chat-transcript.ts): role chunk, content deltas, finish, usage, [DONE]. */
function chatFrames(pieces: string[], model: string): string[] {
  const base = { id: 'chatcmpl-peers', object: 'chat.completion.chunk', created: 1763474589, model };
  const data = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
  const chunk = (delta: unknown, finish: string | null = null): string => data({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, 'stop'),
    data({ ...base, choices: [], usage: { prompt_tokens: 1200, completion_tokens: pieces.length, total_tokens: 1200 + pieces.length } }),
    'data: [DONE]\n\n',
  ];
}

/** Responses API events (as ../providers/openai-responses-transcript.ts), one message item. */
function responsesFrames(pieces: string[], model: string): string[] {
  const frames: string[] = [];
  const send = (type: string, fields: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: frames.length, ...fields })}\n\n`);
  };
  const text = pieces.join('');
  const itemId = 'msg_peers0000000000000000000000000000000001';
  const outputText = (value: string): Record<string, unknown> => ({ type: 'output_text', annotations: [], logprobs: [], text: value });
  const message = { id: itemId, type: 'message', status: 'completed', content: [outputText(text)], role: 'assistant' };
  const response = (status: string, output: unknown[], usage: unknown): Record<string, unknown> => ({
    id: 'resp_peers0000000000000000000000000000000000000001',
    object: 'response',
    created_at: 1763474589,
    status,
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    store: false,
    tool_choice: 'auto',
    tools: [],
    usage,
  });
  send('response.created', { response: response('in_progress', [], null) });
  send('response.in_progress', { response: response('in_progress', [], null) });
  send('response.output_item.added', { output_index: 0, item: { id: itemId, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
  send('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: outputText('') });
  for (const delta of pieces) send('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta, logprobs: [] });
  send('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] });
  send('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: outputText(text) });
  send('response.output_item.done', { output_index: 0, item: message });
  send('response.completed', {
    response: response('completed', [message], {
      input_tokens: 1200,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: pieces.length,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 1200 + pieces.length,
    }),
  });
  return frames;
}

/** Anthropic Messages events (as ../providers/anthropic-messages-transcript.ts), one text block. */
function anthropicFrames(pieces: string[], model: string): string[] {
  const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_01PeersBench00000000000001',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }),
    frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    frame('ping', { type: 'ping' }),
    ...pieces.map((text) => frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
    frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: pieces.length } }),
    frame('message_stop', { type: 'message_stop' }),
  ];
}

/** `streamGenerateContent?alt=sse` chunks (as ../providers/gemini-transcript.ts), `finishReason` on the last. */
function geminiFrames(pieces: string[], model: string): string[] {
  const usage = { promptTokenCount: 1200, totalTokenCount: 1200 };
  return pieces.map((text, i) => {
    const last = i === pieces.length - 1;
    const candidate = { content: { parts: [{ text }], role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 };
    const usageMetadata = last ? { promptTokenCount: 1200, candidatesTokenCount: pieces.length, totalTokenCount: 1200 + pieces.length } : usage;
    return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: model, responseId: 'peersBench01' })}\r\n\r\n`;
  });
}
