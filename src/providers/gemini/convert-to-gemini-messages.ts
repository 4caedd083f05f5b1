import type { AssistantContentPart, ModelMessage, ThinkingPart, ToolResultPart, UserContentPart } from '../message.js';
import type { GeminiContent, GeminiPart, GeminiSignaturePart } from './gemini-types.js';

/** The protocol id stamped on reasoning this protocol produced; only such signatures are replayed. */
export const GEMINI_PROTOCOL = 'gemini';

/**
 * Unified messages → Gemini `contents` (https://ai.google.dev/api/caching#Content).
 * Roles are `user` and `model`; tool results are `functionResponse` parts of a user turn;
 * consecutive turns of one role are merged. Thought signatures go back unchanged on the
 * same kind of part they came on (https://ai.google.dev/gemini-api/docs/thought-signatures);
 * thought text itself is not sent back (the docs: thought summaries need not be returned).
 */
export function convertToGeminiMessages(messages: ModelMessage[]): GeminiContent[] {
  const vendorCallIds = collectVendorCallIds(messages);
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    const content: GeminiContent =
      message.role === 'assistant'
        ? { role: 'model', parts: convertAssistant(message.content) }
        : { role: 'user', parts: message.role === 'user' ? message.content.flatMap(convertUserPart) : convertToolResults(message.content, vendorCallIds) };
    if (content.parts.length === 0) continue;
    const previous = contents.at(-1);
    if (previous !== undefined && previous.role === content.role) previous.parts.push(...content.parts);
    else contents.push(content);
  }
  return contents;
}

function convertUserPart(part: UserContentPart): GeminiPart[] {
  if (part.type === 'image') return [{ inlineData: { mimeType: part.mimeType, data: part.data } }];
  return part.text === '' ? [] : [{ text: part.text }];
}

function convertAssistant(content: AssistantContentPart[]): GeminiPart[] {
  const parts: GeminiPart[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ text: part.text });
    } else if (part.type === 'tool_call') {
      const signature = stringField(part.providerData, 'thoughtSignature');
      const id = stringField(part.providerData, 'functionCallId');
      parts.push({
        functionCall: { ...(id !== undefined ? { id } : {}), name: part.name, args: part.args },
        ...(signature !== undefined ? { thoughtSignature: signature } : {}),
      });
    } else if (part.type === 'thinking') {
      placeSignature(parts, part);
    }
    // A server_tool part is Anthropic's own block; Gemini cannot read it.
  }
  return parts;
}

/** A Gemini signature that did not sit on a function call goes back where it sat. */
function placeSignature(parts: GeminiPart[], part: ThinkingPart): void {
  if (part.providerProtocol !== GEMINI_PROTOCOL || part.signature === undefined || part.signature === '') return;
  const thoughtSignature = part.signature;
  const where = stringField(part.providerData, 'geminiPart') as GeminiSignaturePart | undefined;
  switch (where) {
    case 'thought':
      parts.push({ text: '', thought: true, thoughtSignature });
      return;
    case 'bare':
      parts.push({ thoughtSignature });
      return;
    case 'text': {
      // The signature closed the text streamed just before it: put it back on that text.
      const last = parts.at(-1);
      if (last !== undefined && typeof last.text === 'string' && last.thought !== true && last.thoughtSignature === undefined) {
        last.thoughtSignature = thoughtSignature;
        return;
      }
      parts.push({ text: '', thoughtSignature });
      return;
    }
    default:
      parts.push({ text: '', thoughtSignature });
  }
}

function convertToolResults(results: ToolResultPart[], vendorCallIds: Set<string>): GeminiPart[] {
  const responses: GeminiPart[] = [];
  const images: GeminiPart[] = [];
  for (const result of results) {
    const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
    for (const c of result.content) if (c.type === 'image') images.push({ inlineData: { mimeType: c.mimeType, data: c.data } });
    // FunctionResponse docs: use "output" for the result and "error" for a failure.
    responses.push({
      functionResponse: {
        ...(vendorCallIds.has(result.toolCallId) ? { id: result.toolCallId } : {}),
        name: result.toolName,
        response: result.isError === true ? { error: text } : { output: text },
      },
    });
  }
  // Images cannot sit inside a functionResponse on every model; they follow in the same turn.
  return [...responses, ...images];
}

/** Call ids Gemini itself assigned (kept in providerData), which its responses must echo. */
function collectVendorCallIds(messages: ModelMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool_call' && stringField(part.providerData, 'functionCallId') === part.id) ids.add(part.id);
    }
  }
  return ids;
}

function stringField(data: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = data?.[key];
  return typeof value === 'string' ? value : undefined;
}
