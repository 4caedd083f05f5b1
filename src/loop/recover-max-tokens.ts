import type { AssistantMessage, ToolCallPart, UserMessage } from '../providers/message.js';

/** Continuations after an output-limit cut, per turn, before the turn ends with `max_tokens`. */
export const MAX_TOKENS_RECOVERIES = 3;

/**
 * Sent as a user message after a response was cut off by the output token limit. The
 * model resumes mid-thought instead of restarting or apologizing (which would waste the
 * next response the same way), and splits work that is too big for one response.
 */
export const RESUME_INSTRUCTION =
  'Your previous response was cut off because it reached the output token limit. ' +
  'Continue exactly where you stopped, mid-thought if need be: no apology, no recap of what you already wrote. ' +
  'If you were writing a tool call or a large file, break the work into smaller pieces ' +
  '(for example, write the file in several parts or make several smaller edits).';

/** The cut-off response made safe to keep, and the tool calls taken out of it. */
export interface MaxTokensRecovery {
  /** The message to commit: the input without the dropped calls (its content may be empty). */
  keep: AssistantMessage;
  /** Calls whose arguments were cut off; they must never run. */
  dropped: ToolCallPart[];
}

/**
 * Removes the tool calls whose arguments were cut off by the output limit, so they are
 * never executed. The decision: a call is dropped when its arguments failed to parse
 * (`argsError`): truncated JSON never parses. One more case is dropped: a call that is
 * the very last part with empty arguments (`{}`), since the cut may have come before
 * any argument arrived and providers report that as `{}` too. Every other call parsed
 * completely before the cut and is kept; the caller must run it (vendors reject a tool
 * call without a result) before sending the resume message. Text and reasoning are kept
 * as they are. The input message is not changed.
 */
export function prepareMaxTokensRecovery(message: AssistantMessage): MaxTokensRecovery {
  const dropped: ToolCallPart[] = [];
  const last = message.content.at(-1);
  const content = message.content.filter((part) => {
    if (part.type !== 'tool_call') return true;
    const cut = part.argsError !== undefined || (part === last && Object.keys(part.args ?? {}).length === 0);
    if (cut) dropped.push(part);
    return !cut;
  });
  return { keep: { role: 'assistant', content }, dropped };
}

/**
 * The user message that resumes a cut-off response: RESUME_INSTRUCTION, plus the names
 * of the calls that were dropped so the model knows they did not run.
 */
export function resumeMessage(dropped: readonly ToolCallPart[] = []): UserMessage {
  const names = [...new Set(dropped.map((call) => call.name))];
  const note =
    names.length === 0
      ? ''
      : ` Your call${dropped.length === 1 ? '' : 's'} to ${names.join(', ')} ${dropped.length === 1 ? 'was' : 'were'} cut off and did not run; make ${dropped.length === 1 ? 'it' : 'them'} again in smaller pieces.`;
  return { role: 'user', content: [{ type: 'text', text: RESUME_INSTRUCTION + note }] };
}
