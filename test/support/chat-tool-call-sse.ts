/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** The call id (OpenAI `tool_calls[].id`). */
  id: string;
  /** Tool name. */
  name: string;
  /** Arguments, sent as their JSON text. */
  arguments: Record<string, unknown>;
}

/**
 * An OpenAI chat-completions stream in which the model calls tools
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming): the role
 * chunk, for each call a chunk with its id and name and then its arguments in two
 * pieces, `finish_reason: "tool_calls"`, the include_usage chunk, then `data: [DONE]`.
 */
export function chatToolCallSse(calls: ScriptedToolCall[]): string {
  const base = { id: 'chatcmpl-e2e-tools', object: 'chat.completion.chunk', created: 1_763_800_000, model: 'e2e-model' };
  const chunk = (delta: unknown, finish: string | null = null): unknown => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames: unknown[] = [chunk({ role: 'assistant', content: null })];
  calls.forEach((call, index) => {
    const json = JSON.stringify(call.arguments);
    const half = Math.floor(json.length / 2);
    frames.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    frames.push(chunk({ tool_calls: [{ index, function: { arguments: json.slice(0, half) } }] }));
    frames.push(chunk({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] }));
  });
  frames.push(chunk({}, 'tool_calls'));
  frames.push({ ...base, choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } });
  return frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/**
 * The text the model got back for one tool call, read from a recorded chat-completions
 * request body (`role: "tool"` messages carry `tool_call_id`; content is a string or parts).
 */
export function toolResultText(body: unknown, toolCallId: string): string {
  const messages = (body as { messages: Array<{ role: string; tool_call_id?: string; content: unknown }> }).messages;
  const message = messages.find((m) => m.role === 'tool' && m.tool_call_id === toolCallId);
  if (!message) throw new Error(`no tool result for ${toolCallId} in ${JSON.stringify(messages)}`);
  return typeof message.content === 'string' ? message.content : (message.content as Array<{ text?: string }>).map((p) => p.text ?? '').join('');
}

/** The text of every user message of a recorded chat-completions request body, in order. */
export function userTexts(body: unknown): string[] {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content as Array<{ text?: string }>).map((p) => p.text ?? '').join('')));
}

/** The text of the last user message of a recorded chat-completions request body ('' when none). */
export function lastUserText(body: unknown): string {
  return userTexts(body).at(-1) ?? '';
}
