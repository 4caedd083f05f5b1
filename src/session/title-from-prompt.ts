import type { ContentBlock } from '../../protocol/index.js';

/** Longest title kept, in characters; a list of sessions shows about this much per line. */
export const TITLE_MAX_LENGTH = 60;

/**
 * A session's title, from its first prompt: the first line of its text with whitespace
 * collapsed, cut at a word boundary with an ellipsis when longer than TITLE_MAX_LENGTH.
 * Made here rather than by a model: free, instant, and the same in every client.
 * Undefined when the prompt has no text (an image alone).
 */
export function titleFromPrompt(blocks: readonly ContentBlock[]): string | undefined {
  const text = blocks
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .find((line) => line !== '');
  if (text === undefined) return undefined;
  if (text.length <= TITLE_MAX_LENGTH) return text;
  const cut = text.slice(0, TITLE_MAX_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
