/**
 * An OpenAI chat-completions stream in the exact wire format
 * (https://platform.openai.com/docs/api-reference/chat-streaming): one `data:` line
 * per chunk, a blank line after each, the include_usage chunk, then `data: [DONE]`.
 */
export function chatCompletionSse(pieces: string[], options: { finishReason?: string; usage?: boolean } = {}): string {
  const base = { id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1_763_800_000, model: 'e2e-model' };
  const frames: unknown[] = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    ...pieces.map((content) => ({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: options.finishReason ?? 'stop' }] },
  ];
  if (options.usage !== false) {
    frames.push({ ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: pieces.length, total_tokens: 12 + pieces.length } });
  }
  return frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('') + 'data: [DONE]\n\n';
}
