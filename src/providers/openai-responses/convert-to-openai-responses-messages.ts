import type { AssistantMessage, ImagePart, ModelMessage, TextPart, ThinkingPart, ToolMessage } from '../message.js';
import type { SystemBlock } from '../request.js';
import type { ResponsesInputContent, ResponsesInputItem } from './openai-responses-api-types.js';

/** The protocol name stored on reasoning this adapter produced. */
export const OPENAI_RESPONSES_PROTOCOL = 'openai-responses';

/** What `convertToOpenAIResponsesMessages` returns: the body's `instructions` and `input`. */
export interface OpenAIResponsesPrompt {
  /** The system blocks joined by blank lines; undefined when there are none. */
  instructions: string | undefined;
  input: ResponsesInputItem[];
}

function imageUrl(part: ImagePart): string {
  return `data:${part.mimeType};base64,${part.data}`;
}

function userContent(part: TextPart | ImagePart): ResponsesInputContent {
  return part.type === 'text' ? { type: 'input_text', text: part.text } : { type: 'input_image', image_url: imageUrl(part) };
}

/**
 * Reasoning is replayed only when this protocol produced it and its encrypted content is
 * there: with `store: false` the server keeps nothing, so an item id alone cannot be
 * resolved ("Item with id 'rs_…' not found"), and another vendor's reasoning means nothing
 * here (https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items).
 */
function reasoningItem(part: ThinkingPart): ResponsesInputItem | undefined {
  if (part.providerProtocol !== OPENAI_RESPONSES_PROTOCOL || part.redacted === undefined) return undefined;
  const itemId = part.providerData?.['itemId'];
  if (typeof itemId !== 'string') return undefined;
  return {
    type: 'reasoning',
    id: itemId,
    encrypted_content: part.redacted,
    summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
  };
}

/** Assistant history keeps its order: reasoning, text runs and calls interleave as produced. */
function assistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  let text: ResponsesInputContent[] = [];
  const flushText = (): void => {
    if (text.length > 0) items.push({ role: 'assistant', content: text });
    text = [];
  };
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') text.push({ type: 'output_text', text: part.text });
      continue;
    }
    flushText();
    if (part.type === 'thinking') {
      const item = reasoningItem(part);
      if (item) items.push(item);
    } else if (part.type === 'tool_call') {
      items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: JSON.stringify(part.args) });
    }
    // A server_tool part is Anthropic's own block; Responses cannot read it.
  }
  flushText();
  return items;
}

/**
 * Tool results answer by `call_id` (https://platform.openai.com/docs/guides/function-calling).
 * Text-only results are sent as a string; results with images use the content-array form.
 */
function toolItems(message: ToolMessage): ResponsesInputItem[] {
  return message.content.map((result) => {
    const hasImage = result.content.some((part) => part.type === 'image');
    const output = hasImage
      ? result.content.map(userContent)
      : result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    return { type: 'function_call_output', call_id: result.toolCallId, output };
  });
}

/** Pure conversion of the unified prompt to the Responses `instructions` + `input` items. */
export function convertToOpenAIResponsesMessages(system: SystemBlock[], messages: ModelMessage[]): OpenAIResponsesPrompt {
  const instructions = system
    .map((block) => block.text)
    .filter((text) => text !== '')
    .join('\n\n');
  const input: ResponsesInputItem[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      if (message.content.length > 0) input.push({ role: 'user', content: message.content.map(userContent) });
    } else if (message.role === 'assistant') {
      input.push(...assistantItems(message));
    } else {
      input.push(...toolItems(message));
    }
  }
  return { instructions: instructions === '' ? undefined : instructions, input };
}
