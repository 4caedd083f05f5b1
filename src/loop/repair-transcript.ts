import type { ModelMessage } from '../providers/message.js';
import { answerUnrun } from './commit-steps.js';

const INTERRUPTED = 'The tool call was interrupted before it finished (the turn was cancelled or the daemon stopped).';

/**
 * Makes a transcript valid for every vendor: each assistant tool call must be answered
 * by a result in the next message. A crash or abort can leave calls unanswered; they
 * get an error result saying so. Returns a new array; the input is not changed.
 */
export function repairTranscript(history: ModelMessage[]): ModelMessage[] {
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
