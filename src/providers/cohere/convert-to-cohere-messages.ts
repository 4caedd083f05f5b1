import type { AssistantMessage, ImagePart, ModelMessage, TextPart, ToolResultPart } from '../message.js';
import type { SystemBlock } from '../request.js';
import type { CohereToolNames } from './cohere-tool-names.js';
import type { CohereImageContent, CohereMessage, CohereTextContent, CohereThinkingContent, CohereToolCall } from './cohere-types.js';

/** The protocol id stamped on reasoning this protocol produced; only such reasoning is replayed. */
export const COHERE_PROTOCOL = 'cohere';

/** `providerData` of a thinking part that holds Cohere's `tool_plan`, not a reasoning model's thinking. */
export const TOOL_PLAN_MARK = { cohere: 'tool_plan' } as const;

/**
 * Unified conversation → Chat v2 `messages` (https://docs.cohere.com/reference/chat-stream,
 * "messages"; tool use: https://docs.cohere.com/v2/docs/tool-use-streaming).
 *
 * - The system blocks become one leading `system` message.
 * - User text is a plain string; with images, a list of `text` and `image_url` parts
 *   (base64 `data:` URIs, https://docs.cohere.com/v2/docs/image-inputs).
 * - An assistant turn with tool calls carries them in `tool_calls` (arguments as a JSON
 *   string) and its words in `tool_plan`, where Cohere itself puts the text it writes
 *   before calling tools; without calls its text (and a Cohere reasoning model's own
 *   thinking) goes in `content`. Thinking from other protocols has already become text
 *   (convertHistoryForModel) or is dropped here.
 * - Each tool result is a `tool` message with its `tool_call_id` and text content; Cohere
 *   tool messages take no images, so an image is named in the text instead.
 */
export function convertToCohereMessages(system: readonly SystemBlock[], messages: readonly ModelMessage[], names: CohereToolNames): CohereMessage[] {
  const result: CohereMessage[] = [];
  const systemText = system.map((block) => block.text).filter((text) => text !== '').join('\n\n');
  if (systemText !== '') result.push({ role: 'system', content: systemText });
  for (const message of messages) {
    switch (message.role) {
      case 'user': {
        const content = userContent(message.content);
        if (content !== '' && !(Array.isArray(content) && content.length === 0)) result.push({ role: 'user', content });
        break;
      }
      case 'assistant': {
        const converted = assistantMessage(message, names);
        if (converted !== undefined) result.push(converted);
        break;
      }
      case 'tool':
        for (const part of message.content) result.push({ role: 'tool', tool_call_id: part.toolCallId, content: [{ type: 'text', text: toolResultText(part) }] });
        break;
    }
  }
  return result;
}

function assistantMessage(message: AssistantMessage, names: CohereToolNames): CohereMessage | undefined {
  const texts: string[] = [];
  const plans: string[] = [];
  const thinking: CohereThinkingContent[] = [];
  const calls: CohereToolCall[] = [];
  for (const part of message.content) {
    if (part.type === 'text' && part.text !== '') texts.push(part.text);
    else if (part.type === 'tool_call') calls.push({ id: part.id, type: 'function', function: { name: names.spell(part.name), arguments: JSON.stringify(part.args) } });
    else if (part.type === 'thinking' && part.providerProtocol === COHERE_PROTOCOL && part.text.trim() !== '') {
      if (part.providerData?.['cohere'] === TOOL_PLAN_MARK.cohere) plans.push(part.text);
      else thinking.push({ type: 'thinking', thinking: part.text });
    }
    // server_tool parts are Anthropic's own blocks; no other protocol can read them.
  }
  if (calls.length > 0) {
    const plan = [...plans, ...texts].join('\n\n');
    return { role: 'assistant', ...(thinking.length > 0 ? { content: thinking } : {}), ...(plan !== '' ? { tool_plan: plan } : {}), tool_calls: calls };
  }
  const text: CohereTextContent[] = texts.map((t) => ({ type: 'text', text: t }));
  // An assistant turn with nothing to say (only a plan or foreign reasoning) is left out.
  if (text.length === 0) return undefined;
  return { role: 'assistant', content: [...thinking, ...text] };
}

function userContent(parts: ReadonlyArray<TextPart | ImagePart>): string | Array<CohereTextContent | CohereImageContent> {
  // Blocks of one prompt (the text, an attached file) stay apart, as they do for the other protocols.
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as TextPart).text).filter((t) => t !== '').join('\n\n');
  return parts.flatMap((part): Array<CohereTextContent | CohereImageContent> => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    return [{ type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } }];
  });
}

function toolResultText(part: ToolResultPart): string {
  const text = part.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const images = part.content.length - part.content.filter((item) => item.type === 'text').length;
  const note = images > 0 ? `(${images} image(s) left out: Cohere tool results take text only)` : '';
  const body = [text, note].filter((t) => t !== '').join('\n') || '(no output)';
  // Cohere tool messages have no error flag; say it in the content.
  return part.isError === true ? `Error: ${body}` : body;
}
