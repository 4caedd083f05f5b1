import { chatCompletionSse } from './chat-completion-sse.js';
import { chatToolCallSse } from './chat-tool-call-sse.js';
import { sseFrameEnds } from './sse-frame-ends.js';
import type { RecordedRequest, ReplayResponse } from './replay-server.js';

type ChatMessage = { role: string; content: unknown; tool_call_id?: string };

/** The marker number of the last `prompt-N` the user sent, from a chat-completions request. */
export function lastPromptNumber(body: unknown): string {
  const messages = (body as { messages: ChatMessage[] }).messages;
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const match = /prompt-(\d+)/.exec(JSON.stringify(user?.content ?? ''));
  if (!match) throw new Error(`no prompt-N in the last user message of ${JSON.stringify(messages).slice(0, 400)}`);
  return match[1]!;
}

/**
 * An OpenAI-compatible model for many sessions at once (a ReplayServer `respond`): a user
 * turn `prompt-N` is answered with a call `call-N` of the `read` tool on `file`, and the
 * tool's result with the text `answer-N`. Each SSE frame is its own write, `delayMs` apart,
 * so a turn takes long enough to be interrupted anywhere.
 */
export function readThenAnswer(options: { file: string; delayMs: number }): (request: RecordedRequest) => ReplayResponse {
  return (request) => {
    const messages = (request.body as { messages: ChatMessage[] }).messages;
    const n = lastPromptNumber(request.body);
    const body =
      messages.at(-1)?.role === 'tool'
        ? chatCompletionSse(['Read it: ', `answer-${n}`, ' (done)'])
        : chatToolCallSse([{ id: `call-${n}`, name: 'read', arguments: { path: options.file } }]);
    return { body, chunking: { splitAt: sseFrameEnds(body) }, delayMs: options.delayMs };
  };
}
