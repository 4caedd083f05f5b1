import type { AssistantContentPart, ImagePart, ModelMessage, TextPart, ToolResultPart } from '../message.js';
import type {
  AnthropicAssistantBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicUserBlock,
} from './anthropic-messages-types.js';

/** The protocol id stamped on reasoning this protocol produced; only such reasoning is replayed. */
export const ANTHROPIC_MESSAGES_PROTOCOL = 'anthropic-messages';

/**
 * Unified messages → Anthropic `messages` (https://docs.anthropic.com/en/api/messages).
 * Roles must alternate, so consecutive messages of one role are merged; tool results
 * become `tool_result` blocks of a user message, which keeps them first in that message
 * as the tool-use docs require. Empty text is dropped (the API rejects empty text
 * blocks), and so is a message left without blocks.
 */
export function convertToAnthropicMessages(messages: ModelMessage[]): AnthropicMessage[] {
  const result: AnthropicMessage[] = [];
  for (const message of messages) {
    const converted: AnthropicMessage =
      message.role === 'assistant'
        ? { role: 'assistant', content: message.content.flatMap(convertAssistantPart) }
        : { role: 'user', content: message.role === 'user' ? message.content.flatMap(convertUserPart) : message.content.map(convertToolResult) };
    if (converted.content.length === 0) continue;
    const previous = result.at(-1);
    if (previous !== undefined && previous.role === converted.role) {
      // Same role: append the blocks (the union narrows per role, so push through a cast).
      (previous.content as Array<AnthropicUserBlock | AnthropicAssistantBlock>).push(...converted.content);
    } else {
      result.push({ role: converted.role, content: [...converted.content] } as AnthropicMessage);
    }
  }
  return result;
}

function convertUserPart(part: TextPart | ImagePart): Array<AnthropicTextBlock | AnthropicImageBlock> {
  if (part.type === 'image') return [imageBlock(part)];
  return part.text === '' ? [] : [{ type: 'text', text: part.text }];
}

function convertAssistantPart(part: AssistantContentPart): AnthropicAssistantBlock[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'tool_call':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: part.args }];
    case 'thinking':
      // Reasoning from another protocol cannot be verified by Anthropic; reasoning without a
      // signature (an aborted block) would be rejected. Both are dropped.
      // https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
      if (part.providerProtocol !== ANTHROPIC_MESSAGES_PROTOCOL) return [];
      if (part.redacted !== undefined) return [{ type: 'redacted_thinking', data: part.redacted }];
      if (part.signature !== undefined && part.signature !== '') return [{ type: 'thinking', thinking: part.text, signature: part.signature }];
      return [];
    case 'server_tool':
      // Server-tool blocks must come back unchanged, in place
      // (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool).
      if (part.providerProtocol !== ANTHROPIC_MESSAGES_PROTOCOL || typeof part.block.type !== 'string') return [];
      return [{ ...part.block, type: part.block.type }];
  }
}

function convertToolResult(part: ToolResultPart): AnthropicToolResultBlock {
  const content = part.content.flatMap(convertUserPart);
  return {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    content,
    ...(part.isError === true ? { is_error: true } : {}),
  };
}

function imageBlock(part: ImagePart): AnthropicImageBlock {
  return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } };
}
