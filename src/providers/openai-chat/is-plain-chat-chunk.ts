import type { ChatChunk } from './openai-chat-stream-schema.js';

/**
 * Whether a parsed chunk is the common shape — an id, choices whose delta holds at most a
 * role and string content, a finish reason — with every field it has of the type
 * chatChunkSchema asks for, so the schema would accept it and the parser may read it as
 * it is. Anything else (usage, tool calls, reasoning, refusals, errors, a field of an
 * unexpected type, an `event: error` frame) returns false and goes through the schema,
 * which checks it in full. This spares the schema's walk over the thousands of content
 * chunks of one answer.
 */
export function isPlainChatChunk(json: Record<string, unknown>, event?: string): json is ChatChunk & Record<string, unknown> {
  if (event === 'error') return false;
  if (!nullishOr(json.id, 'string')) return false;
  if (json.usage != null || json.x_groq != null || json.error != null) return false;
  if (json.message != null || json.code != null || json.type != null) return false;
  const choices = json.choices;
  if (choices == null) return true;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices as unknown[]) {
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) return false;
    const { index, delta, finish_reason } = choice as Record<string, unknown>;
    if (!nullishOr(index, 'number') || !nullishOr(finish_reason, 'string')) return false;
    if (delta == null) continue;
    if (typeof delta !== 'object' || Array.isArray(delta)) return false;
    const { role, content, refusal, reasoning_content, reasoning, tool_calls } = delta as Record<string, unknown>;
    if (!nullishOr(role, 'string') || !nullishOr(content, 'string')) return false;
    if (refusal != null || reasoning_content != null || reasoning != null || tool_calls != null) return false;
  }
  return true;
}

function nullishOr(value: unknown, type: 'string' | 'number'): boolean {
  return value == null || typeof value === type;
}
