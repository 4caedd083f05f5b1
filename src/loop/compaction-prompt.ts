import type { ModelMessage, TextPart, ImagePart } from '../providers/message.js';

/** The sections every summary has, in order; the model is told to write each heading. */
export const COMPACTION_SECTIONS = [
  'Request and intent',
  'Key concepts',
  'Files and code',
  'Errors and fixes',
  'Pending tasks',
  'Current work',
  'Next step',
] as const;

/** The summary call's system prompt: it summarizes, it does not continue the work. */
export const COMPACTION_SYSTEM_PROMPT =
  'You summarize a conversation between a user and a coding agent so the agent can continue the work ' +
  'with only your summary and its most recent messages. You have no tools. Answer with the summary in ' +
  'plain text and nothing else.';

const SECTION_GUIDANCE: Record<(typeof COMPACTION_SECTIONS)[number], string> = {
  'Request and intent': "every request the user made and what they are trying to achieve, in the user's own terms",
  'Key concepts': 'technologies, conventions, decisions and constraints that matter for the rest of the work',
  'Files and code': 'each file read, created or changed, why it matters, and short code snippets that must not be lost',
  'Errors and fixes': 'errors met, how each was fixed, and any user feedback on the approach',
  'Pending tasks': 'everything asked for and not yet done',
  'Current work': 'precisely what was being done just before this summary, with file names and details',
  'Next step': 'the next step, only if it follows directly from the latest request; quote the latest request word for word',
};

/**
 * Each tool result or call argument is cut to this many characters in the transcript:
 * the summary needs what a result showed, not every byte, and the summary request has to
 * fit in the same window that is being compacted.
 */
export const MAX_SERIALIZED_PART_CHARS = 6_000;

/**
 * The one user message of the summary request: instructions, the transcript as plain
 * text, then the required sections again so they are the last thing the model reads.
 * Tool calls and results are text inside the transcript, so the request carries no
 * tools and no tool-call parts and works with every vendor.
 */
export function buildCompactionPrompt(messages: readonly ModelMessage[]): string {
  const sections = COMPACTION_SECTIONS.map((name, i) => `${i + 1}. ${name}: ${SECTION_GUIDANCE[name]}.`).join('\n');
  const headings = COMPACTION_SECTIONS.map((name) => `## ${name}`).join('\n');
  return [
    'Summarize the conversation below. The summary replaces it: anything you leave out is lost to the agent.',
    'Be specific: keep file paths, function names, commands, error messages and the user\'s exact wording where it matters.',
    'Cover these sections:',
    sections,
    '',
    '<transcript>',
    serializeTranscript(messages),
    '</transcript>',
    '',
    'Write the summary now, in plain text, with exactly these headings in this order (write "None." under a heading with nothing to say):',
    headings,
  ].join('\n');
}

/**
 * The messages as readable text: one block per message headed by its role, tool calls
 * as `[tool call NAME (id)] ARGS`, results as `[tool result NAME (id)]`, images as
 * `[image]`. Reasoning is left out: it is long, often opaque (signed or redacted), and
 * what came of it is in the answers and tool calls.
 */
export function serializeTranscript(messages: readonly ModelMessage[], maxPartChars = MAX_SERIALIZED_PART_CHARS): string {
  const blocks: string[] = [];
  for (const message of messages) {
    const lines: string[] = [];
    if (message.role === 'user') {
      for (const part of message.content) lines.push(contentText(part, maxPartChars));
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'text') lines.push(clip(part.text, maxPartChars));
        else if (part.type === 'tool_call') {
          const args = part.argsError !== undefined ? `(arguments unreadable: ${part.argsError})` : JSON.stringify(part.args);
          lines.push(`[tool call ${part.name} (${part.id})] ${clip(args, maxPartChars)}`);
        }
      }
    } else {
      for (const result of message.content) {
        const label = result.isError === true ? 'tool error' : 'tool result';
        const body = result.content.map((part) => contentText(part, maxPartChars)).join('\n');
        lines.push(`[${label} ${result.toolName} (${result.toolCallId})]\n${body}`);
      }
    }
    const text = lines.filter((line) => line !== '').join('\n');
    if (text !== '') blocks.push(`[${message.role}]\n${text}`);
  }
  return blocks.join('\n\n');
}

function contentText(part: TextPart | ImagePart, maxChars: number): string {
  return part.type === 'text' ? clip(part.text, maxChars) : '[image]';
}

/** Keeps the head and the tail, which is where file headers, errors and exit codes are. */
function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.75);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n[… ${text.length - maxChars} characters cut …]\n${text.slice(text.length - tail)}`;
}
