import type { ModelMessage } from '../providers/message.js';
import type { Usage } from '../providers/usage.js';
import { contextTokensNow, estimateTokens } from './estimate-tokens.js';

/**
 * A session's history: the one owner of its message list. Messages are only appended
 * (after the store has them), replaced by a compaction, or reset to what the store holds.
 * It also remembers the last response's usage and how much history that covered, which
 * is where the context estimate starts from (exact tokens up to there, an estimate after).
 */
export class Conversation {
  #messages: ModelMessage[];
  #usageMark: { usage: Usage; length: number } | undefined;

  constructor(messages: ModelMessage[] = []) {
    this.#messages = [...messages];
  }

  /** The messages in order; a snapshot callers must not change. */
  get messages(): readonly ModelMessage[] {
    return this.#messages;
  }

  get length(): number {
    return this.#messages.length;
  }

  append(message: ModelMessage): void {
    this.#messages.push(message);
  }

  /** A response's usage covers the history as it is now. */
  markUsage(usage: Usage): void {
    this.#usageMark = { usage, length: this.#messages.length };
  }

  /** Tokens the history takes in the context window now. */
  contextTokens(): number {
    const mark = this.#usageMark;
    return mark ? contextTokensNow(mark.usage, this.#messages.slice(mark.length)) : estimateTokens(this.#messages);
  }

  /** After compaction, or after a failed store write (continue from what is stored): no usage covers the new list. */
  replace(messages: readonly ModelMessage[]): void {
    this.#messages = [...messages];
    this.#usageMark = undefined;
  }
}
