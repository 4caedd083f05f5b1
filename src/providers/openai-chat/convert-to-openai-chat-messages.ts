import type { ImagePart, ModelMessage, TextPart, ToolResultPart } from '../message.js';
import type { SystemBlock } from '../request.js';
import { rememberWireItem } from '../http/request-body-json.js';
import { commonStart } from '../common-start.js';
import type { ChatContentPart, ChatMessage, ChatToolCall } from './openai-chat-api-types.js';

/**
 * Each history message's wire form, made once: a long session's every request repeats
 * the same messages, and history messages are never changed once made (a compaction or a
 * budgeted tool result is a new object). The wire objects are shared between requests and
 * remembered for encodeRequestBody, so nothing may change them after this.
 */
const withReasoning = new WeakMap<ModelMessage, ChatMessage[]>();
const withoutReasoning = new WeakMap<ModelMessage, ChatMessage[]>();

/**
 * Per session, keyed by its history's first message (weakly: a dropped session's entry goes
 * with it): the last history converted, its wire items, and where each message's items end.
 * The next request repeats most of it; only the messages after the shared start are looked up.
 */
interface LastConverted {
  messages: readonly ModelMessage[];
  items: readonly ChatMessage[];
  ends: readonly number[];
}
const lastWithReasoning = new WeakMap<ModelMessage, LastConverted>();
const lastWithoutReasoning = new WeakMap<ModelMessage, LastConverted>();

/** How the conversion treats what differs between servers. */
export interface ConvertOpenAIChatOptions {
  /** Role of the system prompt: `system`, or `developer` for OpenAI reasoning models. */
  systemRole: 'system' | 'developer';
  /** Send thinking text back as `reasoning_content` on assistant messages (DeepSeek). */
  replayReasoningContent: boolean;
}

/**
 * Unified conversation → Chat Completions `messages`
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages).
 *
 * - The system blocks become one leading system (or developer) message: several system
 *   messages, or one not first, break the chat templates of many local servers.
 * - User text-only content is sent as a plain string, the form every compatible server
 *   accepts; with images it is a parts array with `image_url` data URLs.
 * - Assistant tool calls carry their arguments re-serialized as a JSON string; thinking
 *   is dropped unless `replayReasoningContent` (other protocols' signatures mean nothing here).
 * - Each tool result is a `role: "tool"` message with its `tool_call_id`. Tool messages
 *   take text only, so images from results follow in one user message.
 */
export function convertToOpenAIChatMessages(
  system: readonly SystemBlock[],
  messages: readonly ModelMessage[],
  options: ConvertOpenAIChatOptions,
): ChatMessage[] {
  const systemText = system.map((block) => block.text).filter((text) => text !== '').join('\n\n');
  const lead: ChatMessage[] = systemText === '' ? [] : [{ role: options.systemRole, content: systemText }];

  const cache = options.replayReasoningContent ? withReasoning : withoutReasoning;
  const lasts = options.replayReasoningContent ? lastWithReasoning : lastWithoutReasoning;
  const first = messages[0];
  if (first === undefined) return lead;
  const last = lasts.get(first);
  const shared = last === undefined ? 0 : commonStart(last.messages, messages);
  const items = shared === 0 ? [] : last!.items.slice(0, last!.ends[shared - 1]);
  const ends = shared === 0 ? [] : last!.ends.slice(0, shared);
  for (let i = shared; i < messages.length; i++) {
    const message = messages[i]!;
    let converted = cache.get(message);
    if (converted === undefined) {
      converted = convertMessage(message, options).map(rememberWireItem);
      cache.set(message, converted);
    }
    for (const item of converted) items.push(item);
    ends.push(items.length);
  }
  // Copies kept: the caller's array, and the one returned, may change after this call.
  lasts.set(first, { messages: [...messages], items, ends });
  return [...lead, ...items];
}

/** One history message as Chat Completions messages (none, one, or a tool message's several). */
function convertMessage(message: ModelMessage, options: ConvertOpenAIChatOptions): ChatMessage[] {
  const out: ChatMessage[] = [];
  switch (message.role) {
    case 'user':
      out.push({ role: 'user', content: userContent(message.content) });
      return out;
    case 'assistant': {
      // Separate text parts (blocks the vendor kept apart) stay apart as paragraphs;
      // server_tool parts are Anthropic's own blocks and are not sent.
      const text = message.content.flatMap((part) => (part.type === 'text' && part.text !== '' ? [part.text] : [])).join('\n\n');
      const reasoning = message.content.flatMap((part) => (part.type === 'thinking' ? [part.text] : [])).join('');
      const toolCalls: ChatToolCall[] = message.content.flatMap((part) =>
        part.type === 'tool_call'
          ? [{ id: part.id, type: 'function' as const, function: { name: part.name, arguments: JSON.stringify(part.args) } }]
          : [],
      );
      // An assistant turn with nothing to say (e.g. only foreign reasoning) is left out:
      // several servers reject an assistant message with neither content nor tool calls.
      if (text === '' && toolCalls.length === 0) return out;
      out.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        ...(options.replayReasoningContent && reasoning !== '' ? { reasoning_content: reasoning } : {}),
      });
      return out;
    }
    case 'tool': {
      const images: ImagePart[] = [];
      for (const part of message.content) {
        out.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolResultText(part) });
        images.push(...part.content.filter((item): item is ImagePart => item.type === 'image'));
      }
      if (images.length > 0) {
        out.push({
          role: 'user',
          content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...images.map(imagePart)],
        });
      }
      return out;
    }
  }
  return out;
}

function userContent(parts: ReadonlyArray<TextPart | ImagePart>): string | ChatContentPart[] {
  // Blocks of one prompt (the text, an attached file) stay apart, as they do for the other protocols.
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as TextPart).text).join('\n\n');
  return parts.map((part) => (part.type === 'text' ? { type: 'text' as const, text: part.text } : imagePart(part)));
}

function imagePart(part: ImagePart): ChatContentPart {
  return { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
}

function toolResultText(part: ToolResultPart): string {
  const text = part.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const imageCount = part.content.length - part.content.filter((item) => item.type === 'text').length;
  const body = imageCount > 0 && text === '' ? `(${imageCount} image(s), attached below)` : text;
  // Chat Completions has no is_error flag on tool messages; say it in the content.
  return part.isError === true ? `Error: ${body}` : body;
}
