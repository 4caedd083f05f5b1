import { isCompactionRecord } from './compaction-marker.js';
import type { MessageRecord, SessionRecord } from '../store/store.js';

type Part = { type: string; [key: string]: unknown };

/**
 * A stored session as Markdown, for `agentd sessions show` and `export` and the protocol's
 * export: a heading with the title, where it ran and what it cost, then each message in
 * order — the prompts,
 * the answers (reasoning as a quote), each tool call with its arguments and its result.
 * `full` keeps tool results whole; otherwise each is cut to its first lines.
 */
export function renderSessionMarkdown(session: SessionRecord & { totalCostUsd?: number }, messages: MessageRecord[], options: { full: boolean }): string {
  const out: string[] = [`# ${session.title ?? 'Untitled session'}`, ''];
  out.push(`- id: \`${session.id}\``, `- directory: \`${session.cwd}\``);
  if (session.additionalDirectories.length > 0) out.push(`- also: ${session.additionalDirectories.map((d) => `\`${d}\``).join(', ')}`);
  out.push(`- created ${session.createdAt}, last active ${session.updatedAt}`);
  if (typeof session.totalCostUsd === 'number' && session.totalCostUsd > 0) out.push(`- cost: $${session.totalCostUsd.toFixed(4)}`);
  out.push('');
  for (const message of messages) {
    if (isCompactionRecord(message)) {
      out.push('## Summary of the earlier conversation (compaction)', '', textOf(message.content as Part[]), '');
      continue;
    }
    const interrupted = message.status === 'interrupted' ? ' (interrupted)' : '';
    if (message.role === 'user') out.push(`## User${interrupted}`, '', textOf(message.content as Part[]), '');
    else if (message.role === 'assistant') out.push(`## Assistant${message.model ? ` (${message.model})` : ''}${interrupted}`, '', ...assistantLines(message.content as Part[]), '');
    else out.push(...toolResultLines(message.content as Part[], options.full));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function textOf(parts: Part[]): string {
  return parts
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : part.type === 'image' ? '*[image]*' : ''))
    .filter((text) => text !== '')
    .join('\n\n');
}

function assistantLines(parts: Part[]): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    if (part.type === 'thinking' && typeof part.text === 'string' && part.text !== '') {
      lines.push(...part.text.split('\n').map((line) => `> ${line}`), '');
    } else if (part.type === 'text' && typeof part.text === 'string') {
      lines.push(part.text, '');
    } else if (part.type === 'tool_call') {
      lines.push(`**Tool call** \`${String(part.name)}\` (\`${String(part.id)}\`)`, '', fence(JSON.stringify(part.args ?? {}, null, 2), 'json'), '');
    } else if (part.type === 'server_tool') {
      const block = part.block as { type?: unknown; name?: unknown } | undefined;
      lines.push(`*[${String(block?.type ?? 'server tool')}${block?.name ? ` ${String(block.name)}` : ''}, run by the vendor]*`, '');
    }
  }
  return lines;
}

const SHORT_RESULT_LINES = 20;

function toolResultLines(parts: Part[], full: boolean): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    if (part.type !== 'tool_result') continue;
    const text = textOf((part.content as Part[] | undefined) ?? []);
    const all = text.split('\n');
    const shown = full || all.length <= SHORT_RESULT_LINES ? text : `${all.slice(0, SHORT_RESULT_LINES).join('\n')}\n… ${all.length - SHORT_RESULT_LINES} more lines (agentd sessions export shows all)`;
    lines.push(`**Result** of \`${String(part.toolName)}\` (\`${String(part.toolCallId)}\`)${part.isError ? ' — failed' : ''}`, '', fence(shown, ''), '');
  }
  return lines;
}

/** A fenced block long enough that no backtick run inside it closes it. */
function fence(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}
