/**
 * An OpenAI chat-completions stream in the exact wire format
 * (https://platform.openai.com/docs/api-reference/chat-streaming): one `data:` line
 * per chunk, a blank line after each, the include_usage chunk, then `data: [DONE]`.
 */
export function chatCompletionSse(
  pieces: string[],
  options: { finishReason?: string; usage?: boolean; promptTokens?: number; completionTokens?: number } = {},
): string {
  const base = { id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 1_763_800_000, model: 'e2e-model' };
  const frames: unknown[] = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    ...pieces.map((content) => ({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: options.finishReason ?? 'stop' }] },
  ];
  if (options.usage !== false) {
    const prompt = options.promptTokens ?? 12;
    const completion = options.completionTokens ?? pieces.length;
    frames.push({ ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
  }
  return frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('') + 'data: [DONE]\n\n';
}
