import type { ImagePart, ModelMessage, TextPart } from '../providers/message.js';
import { contextTokens, type Usage } from '../providers/usage.js';

/**
 * What one image costs, roughly: Anthropic bills about (width × height) / 750 tokens,
 * at most ~1,600 for an image at its 1.15-megapixel limit
 * (https://docs.anthropic.com/en/docs/build-with-claude/vision#evaluate-image-size);
 * OpenAI's high-detail tiles land in the same range. We never decode images here.
 */
export const IMAGE_TOKENS = 1_600;

/** Role markers and separators every vendor adds around a message (OpenAI's cookbook counts 3-4). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Framing of one tool call or result (name, id, JSON punctuation the vendor wraps it in). */
const PART_OVERHEAD_TOKENS = 4;

/**
 * BPE merges inside one pre-token cost time quadratic in its length, so a long unbroken
 * run (base64, minified code) could stall the loop for seconds. Counting in slices of at
 * most this many characters keeps the cost linear; cutting at whitespace keeps the
 * count within a few tokens of the whole-text count.
 */
const SLICE_CHARS = 2_000;

/**
 * `gpt-tokenizer` rejects text containing special tokens such as `<|endoftext|>` unless
 * told otherwise; in a transcript they are ordinary characters, so none is disallowed.
 */
const ENCODE_OPTIONS = { disallowedSpecial: new Set<string>() };

type CountTokens = (text: string, options: typeof ENCODE_OPTIONS) => number;
let countTokens: CountTokens | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the tokenizer. Its tables cost more start-up time than the rest of the daemon,
 * so it is loaded on first need (before a compaction decision) rather than at start.
 */
export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer').then((module) => {
    countTokens = module.countTokens as CountTokens;
  });
  return loading;
}

/** Whether exact counts are available (see loadTokenizer). */
export function tokenizerLoaded(): boolean {
  return countTokens !== undefined;
}

/**
 * How far the rough count (four characters a token) can fall short of the real one: text
 * in Chinese, Japanese or Korean runs near one token per character, so four times.
 */
export const ROUGH_COUNT_SHORTFALL = 4;

/** Until the tokenizer is loaded: about four characters a token, the usual rule of thumb for English and code. */
function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Tokens of a piece of text with the `o200k_base` encoding (gpt-tokenizer's default, used
 * by GPT-4o and later). Other vendors' tokenizers differ by some percent; this is an
 * estimate for compaction decisions, never a bill.
 */
export function estimateTextTokens(text: string): number {
  const count = countTokens;
  if (!count) return approximateTokens(text);
  if (text.length <= SLICE_CHARS) return count(text, ENCODE_OPTIONS);
  let total = 0;
  let start = 0;
  while (start < text.length) {
    const end = sliceEnd(text, start);
    total += count(text.slice(start, end), ENCODE_OPTIONS);
    start = end;
  }
  return total;
}

/**
 * Counts per message object: committed messages never change, and the loop estimates
 * the same history before every request. Approximate counts (tokenizer not loaded yet)
 * are not kept.
 */
const counted = new WeakMap<ModelMessage, number>();

/** Tokens one message adds to a request: its text, tool-call arguments, tool results and images. */
export function estimateMessageTokens(message: ModelMessage): number {
  const known = counted.get(message);
  if (known !== undefined) return known;
  const total = countMessageTokens(message);
  if (countTokens) counted.set(message, total);
  return total;
}

function countMessageTokens(message: ModelMessage): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  switch (message.role) {
    case 'user':
      for (const part of message.content) total += contentTokens(part);
      break;
    case 'assistant':
      for (const part of message.content) {
        if (part.type === 'text') total += estimateTextTokens(part.text);
        // Reasoning is replayed to the vendor that produced it, so it occupies the window.
        else if (part.type === 'thinking') total += estimateTextTokens(part.text);
        // A server-tool block (e.g. web search results) is replayed whole to its vendor.
        else if (part.type === 'server_tool') total += PART_OVERHEAD_TOKENS + estimateTextTokens(JSON.stringify(part.block));
        else total += PART_OVERHEAD_TOKENS + estimateTextTokens(textOf(part.name)) + estimateTextTokens(JSON.stringify(part.args ?? {}));
      }
      break;
    case 'tool':
      for (const result of message.content) {
        total += PART_OVERHEAD_TOKENS + estimateTextTokens(textOf(result.toolName));
        for (const part of result.content) total += contentTokens(part);
      }
      break;
  }
  return total;
}

/** Tokens of a list of messages. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * Tokens in the context window right now: what the last response reported (its prompt,
 * cache reads and writes, and its own output, which is now part of the history) plus an
 * estimate of every message added since (tool results, steering, the next prompt).
 * Without a usage yet (a new or freshly compacted session), pass the whole history as
 * `messagesSinceLastUsage`: everything is then an estimate.
 */
export function contextTokensNow(lastUsage: Usage | undefined, messagesSinceLastUsage: readonly ModelMessage[]): number {
  return (lastUsage ? contextTokens(lastUsage) : 0) + estimateTokens(messagesSinceLastUsage);
}

/**
 * A name as text. The loop makes every call well-formed (normalizeToolCall), but an
 * estimate must never be what fails a turn, so a name missing from a message stored by
 * an older version counts as empty.
 */
function textOf(name: unknown): string {
  return typeof name === 'string' ? name : '';
}

function contentTokens(part: TextPart | ImagePart): number {
  return part.type === 'text' ? estimateTextTokens(part.text) : IMAGE_TOKENS;
}

/** End of the slice starting at `start`: before the last whitespace in its second half, never inside a surrogate pair. */
function sliceEnd(text: string, start: number): number {
  const hardEnd = Math.min(start + SLICE_CHARS, text.length);
  if (hardEnd === text.length) return hardEnd;
  for (let i = hardEnd - 1; i > start + SLICE_CHARS / 2; i--) {
    const code = text.charCodeAt(i);
    // Cut before the space: the tokenizer joins a leading space to the next word.
    if (code === 0x20 || code === 0x0a || code === 0x09) return i;
  }
  const previous = text.charCodeAt(hardEnd - 1);
  // A high surrogate at the cut would split one character in two.
  return previous >= 0xd800 && previous <= 0xdbff ? hardEnd - 1 : hardEnd;
}
