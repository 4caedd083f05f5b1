import type { AssistantMessage, ToolCallPart, ToolMessage, UserMessage } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';
import type { LoopContext } from './loop-context.js';

/** Appends a user message (steering, follow-up, resume instruction) to the history and the store. */
export function commitUser(ctx: LoopContext, message: UserMessage): Promise<void> {
  return ctx.port.commit(message, { status: 'complete' });
}

/** The model that gave a response, and what it cost when it reported usage. */
export interface Answered {
  model: string;
  usage?: Usage;
  costUsd?: number;
}

/** Appends an assistant message with the model that gave it, its usage and cost. */
export function commitAssistant(ctx: LoopContext, message: AssistantMessage, status: 'complete' | 'interrupted', answered: Answered): Promise<void> {
  return ctx.port.commit(message, { status, ...answered });
}

/** Appends tool results. */
export function commitTools(ctx: LoopContext, results: ToolMessage, status: 'complete' | 'interrupted'): Promise<void> {
  return ctx.port.commit(results, { status });
}

/**
 * Keeps what an interrupted or failed response produced. Its tool calls never ran: each
 * gets a result saying so, so the transcript stays valid for the next request.
 */
export async function commitPartial(ctx: LoopContext, message: AssistantMessage, reason: string, answered: Answered): Promise<void> {
  if (message.content.length === 0) return;
  await commitAssistant(ctx, message, 'interrupted', answered);
  const calls = message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  if (calls.length > 0) await commitTools(ctx, answerUnrun(calls, reason), 'interrupted');
}

/** Error results for calls that were not run. */
export function answerUnrun(calls: ToolCallPart[], reason: string): ToolMessage {
  return {
    role: 'tool',
    content: calls.map((call) => ({ type: 'tool_result', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: reason }], isError: true })),
  };
}
