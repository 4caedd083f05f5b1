import type { LanguageModel } from '../providers/language-model.js';
import type { AssistantMessage, ModelMessage, UserMessage } from '../providers/message.js';
import type { ModelRequest } from '../providers/request.js';
import type { Usage } from '../providers/usage.js';
import { CompactionError } from './compaction-error.js';
import { buildCompactionPrompt, COMPACTION_SYSTEM_PROMPT } from './compaction-prompt.js';
import { loadTokenizer } from './estimate-tokens.js';
import { selectCompactionRange } from './select-compaction-range.js';

export interface CompactContextOptions {
  /** The model that writes the summary (normally the session's own). */
  model: LanguageModel;
  /** The whole conversation; not modified. */
  history: readonly ModelMessage[];
  /** Cancels the summary call. */
  signal: AbortSignal;
  /** Keep at least this many newest messages verbatim (10 when unset). */
  keepMessages?: number;
  /** Keep at least about this many newest tokens verbatim (20 000 when unset). */
  keepTokens?: number;
  /** Output cap of the summary call; the model's own maximum when unset. */
  maxSummaryTokens?: number;
}

export interface CompactionResult {
  /** The summary text the model wrote. */
  summary: string;
  /** How many of the oldest messages the summary replaces. */
  replaced: number;
  /** The history to continue with: the summary message, an acknowledgement when needed, then the kept messages. */
  newHistory: ModelMessage[];
  /** Tokens of the summary call, to be priced like any other response. */
  usage?: Usage;
}

/** Opening of the user message that carries a summary; `isSummaryMessage` looks for it. */
export const SUMMARY_OPEN = '<summary of the earlier conversation>';
export const SUMMARY_CLOSE = '</summary>';

/**
 * Sent after the summary when the kept part starts with a user message, so roles still
 * alternate: Anthropic merges consecutive user turns but Gemini and some OpenAI-compatible
 * servers reject them. When the kept part starts with an assistant message no
 * acknowledgement is needed and none is added.
 */
export const SUMMARY_ACKNOWLEDGEMENT = 'Understood. I have the summary of our earlier conversation and will continue from it.';

/**
 * Replaces the older part of the history with a summary written by one separate
 * provider call. The call sends no tools and no tool-call parts: the older messages go
 * as a plain-text transcript (see compaction-prompt.ts). Returns undefined, without
 * calling the model, when there is nothing worth summarizing. Throws CompactionError
 * when the call fails or returns no text; the caller's history is never changed.
 */
export async function compactContext(options: CompactContextOptions): Promise<CompactionResult | undefined> {
  await loadTokenizer();
  const range = selectCompactionRange(options.history, {
    ...(options.keepMessages !== undefined ? { keepMessages: options.keepMessages } : {}),
    ...(options.keepTokens !== undefined ? { keepTokens: options.keepTokens } : {}),
  });
  if (range === undefined) return undefined;

  const request: ModelRequest = {
    model: options.model.modelId,
    system: [{ text: COMPACTION_SYSTEM_PROMPT }],
    messages: [{ role: 'user', content: [{ type: 'text', text: buildCompactionPrompt(range.summarize) }] }],
    tools: [],
    ...(options.maxSummaryTokens !== undefined ? { maxTokens: options.maxSummaryTokens } : {}),
  };

  let text = '';
  let usage: Usage | undefined;
  let cutOff = false;
  for await (const event of options.model.stream(request, options.signal)) {
    if (event.type === 'text-delta') text += event.text;
    else if (event.type === 'usage') usage = event.usage;
    else if (event.type === 'stop') cutOff = event.reason.unified === 'max_tokens';
    else if (event.type === 'error') {
      throw new CompactionError(`compaction failed: the summary request to ${options.model.provider}/${options.model.modelId} failed: ${event.error.message}`, event.error);
    }
  }
  const summary = text.trim();
  if (summary === '') {
    throw new CompactionError(`compaction failed: ${options.model.provider}/${options.model.modelId} answered the summary request with no text`);
  }
  // A summary cut off by the output cap still holds most of what matters; say so rather than lose it.
  const finalSummary = cutOff ? `${summary}\n[The summary was cut off at the output limit.]` : summary;

  const newHistory: ModelMessage[] = [summaryMessage(finalSummary)];
  if (range.keep[0]?.role === 'user') newHistory.push(acknowledgement());
  newHistory.push(...range.keep);
  return { summary: finalSummary, replaced: range.summarize.length, newHistory, ...(usage !== undefined ? { usage } : {}) };
}

/** The user message that stands for the summarized part of the conversation. */
export function summaryMessage(summary: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text: `${SUMMARY_OPEN}\n${summary}\n${SUMMARY_CLOSE}` }] };
}

/** True for a message made by `summaryMessage` (e.g. to show it differently when a session is loaded). */
export function isSummaryMessage(message: ModelMessage): boolean {
  const first = message.content[0];
  return message.role === 'user' && first?.type === 'text' && first.text.startsWith(SUMMARY_OPEN);
}

function acknowledgement(): AssistantMessage {
  return { role: 'assistant', content: [{ type: 'text', text: SUMMARY_ACKNOWLEDGEMENT }] };
}
