import type { AssistantMessage, ToolCallPart, ToolMessage, UserMessage } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';
import type { LoopContext } from './loop-context.js';

/** Appends a user message (steering, follow-up, resume instruction) to the history and the store. */
export function commitUser(ctx: LoopContext, message: UserMessage): void {
  ctx.port.commit(message, { status: 'complete' });
}

/** Appends an assistant message with its usage and cost. */
export function commitAssistant(
  ctx: LoopContext,
  message: AssistantMessage,
  status: 'complete' | 'interrupted',
  priced?: { usage: Usage; costUsd: number },
): void {
  ctx.port.commit(message, { status, model: ctx.turn.model.ref, ...priced });
}

/** Appends tool results. */
export function commitTools(ctx: LoopContext, results: ToolMessage, status: 'complete' | 'interrupted'): void {
  ctx.port.commit(results, { status });
}

/**
 * Keeps what an interrupted or failed response produced. Its tool calls never ran: each
 * gets a result saying so, so the transcript stays valid for the next request.
 */
export function commitPartial(ctx: LoopContext, message: AssistantMessage, reason: string, priced?: { usage: Usage; costUsd: number }): void {
  if (message.content.length === 0) return;
  commitAssistant(ctx, message, 'interrupted', priced);
  const calls = message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  if (calls.length > 0) commitTools(ctx, answerUnrun(calls, reason), 'interrupted');
}

/** Error results for calls that were not run. */
export function answerUnrun(calls: ToolCallPart[], reason: string): ToolMessage {
  return {
    role: 'tool',
    content: calls.map((call) => ({ type: 'tool_result', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: reason }], isError: true })),
  };
}
