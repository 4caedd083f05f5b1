import type { ChatContentPiece } from './read-openai-chat-content.js';

/** The tags that wrap reasoning inside a model's answer text, resolved for one model. */
export interface ReasoningTags {
  /** The opening tag, e.g. `<think>`. */
  open: string;
  /** The closing tag, e.g. `</think>`. */
  close: string;
  /**
   * The response begins inside a reasoning block: the server's chat template already
   * emitted the opening tag at the end of the prompt (DeepSeek-R1, QwQ-32B, the Qwen3
   * thinking models), so the text up to the first closing tag is reasoning. An opening
   * tag at the very start (after whitespace) is still accepted and consumed.
   */
  startsInside: boolean;
}

/**
 * Splits streamed answer text into text and thinking by reasoning tags
 * (`<think>…</think>`), whatever the chunking: it holds back only the characters that
 * could still be the start of a tag (plus, inside a block, the whitespace before a
 * possible closing tag), so a tag split across any number of deltas is recognised and a
 * near-miss like a literal `<thi` followed by other text comes out as text. Any number
 * of blocks may appear; a tag inside a block of the other kind is literal text.
 *
 * Whitespace the tags are written with is dropped, as llama.cpp's own reasoning
 * extraction does: whitespace before an opening tag at the very start of the message,
 * just inside a block on either side, and just after a closing tag. So
 * `<think>\nplan\n</think>\n\nanswer` is thinking `plan` and text `answer`, and an empty
 * block (Qwen3's `<think>\n\n</think>` when thinking is off) yields nothing.
 *
 * The result depends only on the concatenated input, never on how it was chunked, so a
 * streamed answer and the message reduced from it agree. `end()` flushes what is held:
 * a stream that stops inside a block (no closing tag, e.g. at the output cap) ends with
 * that reasoning as thinking, and a partial tag at the end is literal text of its block.
 */
export class ThinkTagSplitter {
  private readonly tags: ReasoningTags;
  private inside: boolean;
  /** Nothing but whitespace has been seen yet: an opening tag here starts the message. */
  private atStart = true;
  /** Drop the leading whitespace of what comes next (just after a tag). */
  private skipSpace = false;
  private held = '';

  constructor(tags: ReasoningTags) {
    this.tags = tags;
    this.inside = tags.startsInside;
  }

  /** The pieces a delta of answer text yields now; some characters may be held for later. */
  push(delta: string): ChatContentPiece[] {
    const pieces: ChatContentPiece[] = [];
    this.held += delta;
    while (this.held !== '' && this.step(pieces));
    return pieces;
  }

  /**
   * The server sends reasoning in a field of its own (`reasoning_content`, `reasoning`):
   * it has taken the reasoning out of the text, so an answer not yet begun is not inside a
   * block after all, whatever the model family's template (vLLM's `--reasoning-parser`,
   * llama.cpp's default `--reasoning-format`, OpenRouter, DeepSeek's API). Once the answer
   * has begun this changes nothing.
   */
  reasoningSeparated(): void {
    if (this.atStart) this.inside = false;
  }

  /** The stream ended: everything held, as the block it belongs to. */
  end(): ChatContentPiece[] {
    const rest = this.held;
    this.held = '';
    if (this.inside) {
      const text = this.atStart || this.skipSpace ? rest.trim() : rest.trimEnd();
      return text === '' ? [] : [{ kind: 'thinking', text }];
    }
    const text = this.skipSpace ? rest.trimStart() : rest;
    return text === '' ? [] : [{ kind: 'text', text }];
  }

  /** Consume what can be decided from `held`; false when the rest must wait for more input. */
  private step(pieces: ChatContentPiece[]): boolean {
    if (this.atStart) return this.stepAtStart();
    if (this.skipSpace) {
      this.held = this.held.trimStart();
      if (this.held === '') return false;
      this.skipSpace = false;
    }
    return this.inside ? this.stepInside(pieces) : this.stepOutside(pieces);
  }

  /** Before the first visible character: an opening tag (after whitespace) begins a block. */
  private stepAtStart(): boolean {
    const trimmed = this.held.trimStart();
    if (trimmed === '' || (this.tags.open.startsWith(trimmed) && trimmed !== this.tags.open)) return false;
    this.atStart = false;
    if (trimmed.startsWith(this.tags.open)) {
      this.held = trimmed.slice(this.tags.open.length);
      this.inside = true;
      this.skipSpace = true;
    } else if (this.inside) {
      // Already inside (startsInside): the leading whitespace is the block's own and dropped;
      // outside it belongs to the answer and is kept.
      this.held = trimmed;
    }
    return true;
  }

  private stepOutside(pieces: ChatContentPiece[]): boolean {
    const at = this.held.indexOf(this.tags.open);
    if (at >= 0) {
      emit(pieces, 'text', this.held.slice(0, at));
      this.held = this.held.slice(at + this.tags.open.length);
      this.inside = true;
      this.skipSpace = true;
      return true;
    }
    const keep = partialTagLength(this.held, this.tags.open);
    emit(pieces, 'text', this.held.slice(0, this.held.length - keep));
    this.held = this.held.slice(this.held.length - keep);
    return false;
  }

  private stepInside(pieces: ChatContentPiece[]): boolean {
    const at = this.held.indexOf(this.tags.close);
    if (at >= 0) {
      emit(pieces, 'thinking', this.held.slice(0, at).trimEnd());
      this.held = this.held.slice(at + this.tags.close.length);
      this.inside = false;
      this.skipSpace = true;
      return true;
    }
    const keep = partialTagLength(this.held, this.tags.close);
    const ready = this.held.slice(0, this.held.length - keep);
    // Whitespace at the end may be the whitespace before the closing tag: hold it too.
    const visible = ready.trimEnd();
    emit(pieces, 'thinking', visible);
    this.held = this.held.slice(visible.length);
    return false;
  }
}

function emit(pieces: ChatContentPiece[], kind: ChatContentPiece['kind'], text: string): void {
  if (text !== '') pieces.push({ kind, text });
}

/** Length of the longest end of `text` that is a proper start of `tag` (it may become the tag). */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}
