import type { ChatDeltaContent } from './openai-chat-stream-schema.js';

/** One piece of a streamed delta's content, in the order the server sent it. */
export interface ChatContentPiece {
  kind: 'text' | 'thinking';
  text: string;
}

/**
 * The pieces of `delta.content`, which comes in two shapes: the OpenAI string, and an
 * array of typed parts. Mistral's reasoning models (Magistral) send the array, with
 * `{type:'text', text}` for the answer and `{type:'thinking', thinking:[{type:'text', text}]}`
 * for reasoning (https://docs.mistral.ai/capabilities/reasoning/). Empty text and part
 * types not known here (e.g. `reference`) carry nothing and are skipped.
 */
export function readOpenAIChatContent(content: ChatDeltaContent | null | undefined): ChatContentPiece[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const pieces: ChatContentPiece[] = [];
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '') {
      pieces.push({ kind: 'text', text: part.text });
    } else if (part.type === 'thinking') {
      const inner = Array.isArray(part.thinking) ? part.thinking : typeof part.thinking === 'string' ? [{ type: 'text', text: part.thinking }] : [];
      for (const piece of inner) {
        if (piece.type === 'text' && typeof piece.text === 'string' && piece.text !== '') pieces.push({ kind: 'thinking', text: piece.text });
      }
    }
  }
  return pieces;
}
