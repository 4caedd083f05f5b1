import type { ModelMessage, ToolMessage } from '../providers/message.js';
import { estimateMessageTokens } from './estimate-tokens.js';

/** How much of the recent conversation compaction keeps word for word. */
export interface CompactionRangeOptions {
  /** Keep at least this many of the newest messages; 10 when unset. */
  keepMessages?: number;
  /** Keep at least about this many tokens of the newest messages; 20 000 when unset. */
  keepTokens?: number;
}

/** The history split in two: the older part to summarize and the newer part kept as is. */
export interface CompactionRange {
  /** The oldest messages, replaced by one summary. Never empty. */
  summarize: ModelMessage[];
  /** The newest messages, kept verbatim; starts with a user message or an assistant message after a complete tool exchange. */
  keep: ModelMessage[];
}

export const DEFAULT_KEEP_MESSAGES = 10;
export const DEFAULT_KEEP_TOKENS = 20_000;

/**
 * Picks where to cut the history for compaction: as late as possible while keeping at
 * least `keepMessages` messages and `keepTokens` tokens verbatim, and only at a point
 * where the kept part is a valid transcript on its own — before a user message, or
 * before an assistant message that follows a complete tool exchange. A cut anywhere
 * else would separate a tool call from its result, which every vendor rejects.
 * Returns undefined when no such cut leaves anything to summarize.
 */
export function selectCompactionRange(history: readonly ModelMessage[], options: CompactionRangeOptions = {}): CompactionRange | undefined {
  const keepMessages = options.keepMessages ?? DEFAULT_KEEP_MESSAGES;
  const keepTokens = options.keepTokens ?? DEFAULT_KEEP_TOKENS;
  if (!Number.isInteger(keepMessages) || keepMessages < 0) {
    throw new RangeError(`selectCompactionRange: keepMessages must be a whole number >= 0, got ${keepMessages}`);
  }
  if (!Number.isFinite(keepTokens) || keepTokens < 0) {
    throw new RangeError(`selectCompactionRange: keepTokens must be a number >= 0, got ${keepTokens}`);
  }

  // The latest index whose suffix satisfies both minimums.
  let latest = history.length - keepMessages;
  let tokens = 0;
  for (let i = history.length - 1; i >= latest && i >= 0; i--) tokens += estimateMessageTokens(history[i]!);
  while (latest > 0 && tokens < keepTokens) {
    latest--;
    tokens += estimateMessageTokens(history[latest]!);
  }

  for (let cut = latest; cut > 0; cut--) {
    if (isValidCut(history, cut)) return { summarize: history.slice(0, cut), keep: history.slice(cut) };
  }
  return undefined;
}

/** True when `history.slice(cut)` starts a valid transcript. */
export function isValidCut(history: readonly ModelMessage[], cut: number): boolean {
  const next = history[cut];
  if (next === undefined) return false;
  if (next.role === 'user') return true;
  if (next.role === 'tool') return false;
  return completesToolExchange(history, cut - 1);
}

/**
 * True when `history[end]` is the last of the tool messages answering every call of the
 * assistant message before them.
 */
function completesToolExchange(history: readonly ModelMessage[], end: number): boolean {
  const answered = new Set<string>();
  let i = end;
  while (i >= 0 && history[i]!.role === 'tool') {
    for (const result of (history[i] as ToolMessage).content) answered.add(result.toolCallId);
    i--;
  }
  if (i === end) return false;
  const caller = history[i];
  if (caller?.role !== 'assistant') return false;
  const calls = caller.content.filter((part) => part.type === 'tool_call');
  return calls.length > 0 && calls.every((call) => answered.has(call.id));
}
