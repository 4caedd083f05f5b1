import type { AssistantMessage, ModelMessage, ToolMessage } from '../providers/message.js';
import { answerUnrun } from './commit-steps.js';
import { isMalformedToolCall, normalizeToolCall, UNNAMED_TOOL_CALL } from './normalize-tool-call.js';

const INTERRUPTED = 'The tool call was interrupted before it finished (the turn was cancelled or the daemon stopped).';

/**
 * Makes a transcript valid for every vendor: each assistant tool call must be answered
 * by a result in the next message. A crash or abort can leave calls unanswered; they
 * get an error result saying so. A call stored without a name or an arguments object
 * (by a version before normalizeToolCall) is made well-formed, and its result named
 * like it. Returns a new array; the input is not changed.
 */
export function repairTranscript(stored: ModelMessage[]): ModelMessage[] {
  const history = stored.map(wellFormed);
  const out: ModelMessage[] = [];
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    out.push(message);
    if (message.role !== 'assistant') continue;
    const calls = message.content.filter((p) => p.type === 'tool_call');
    if (calls.length === 0) continue;
    const next = history[i + 1];
    const answered = new Set(next?.role === 'tool' ? next.content.map((r) => r.toolCallId) : []);
    const missing = answerUnrun(calls.filter((call) => !answered.has(call.id)), INTERRUPTED).content;
    if (missing.length === 0) continue;
    if (next?.role === 'tool') {
      out.push({ role: 'tool', content: [...next.content, ...missing] });
      i++;
    } else {
      out.push({ role: 'tool', content: missing });
    }
  }
  return out;
}

function wellFormed(message: ModelMessage): ModelMessage {
  if (message.role === 'assistant') {
    if (!message.content.some((part) => part.type === 'tool_call' && isMalformedToolCall(part))) return message;
    const content = message.content.map((part) => (part.type === 'tool_call' && isMalformedToolCall(part) ? normalizeToolCall(part) : part));
    return { ...message, content } satisfies AssistantMessage;
  }
  if (message.role === 'tool' && message.content.some((result) => typeof result.toolName !== 'string' || result.toolName === '')) {
    const content = message.content.map((result) => (typeof result.toolName === 'string' && result.toolName !== '' ? result : { ...result, toolName: UNNAMED_TOOL_CALL }));
    return { ...message, content } satisfies ToolMessage;
  }
  return message;
}
