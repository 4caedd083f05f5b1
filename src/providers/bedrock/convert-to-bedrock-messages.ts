import type { AssistantContentPart, ImagePart, ModelMessage, TextPart, ToolResultPart } from '../message.js';
import type { BedrockContentBlock, BedrockImageBlock, BedrockImageFormat, BedrockMessage, BedrockTextBlock } from './bedrock-types.js';

/** The protocol id stamped on reasoning this protocol produced; only such reasoning is replayed. */
export const BEDROCK_PROTOCOL = 'bedrock';

/** A message the Converse API cannot take, with the fix in the message. */
export class BedrockRequestError extends Error {
  override readonly name = 'BedrockRequestError';
}

const FORMATS: Record<string, BedrockImageFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * Unified messages → Converse `messages` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html).
 * Roles must alternate and start with a user message, so consecutive messages of one role
 * are merged and tool results become `toolResult` blocks of a user message. Empty text is
 * dropped (the API rejects blank text blocks), and so is a message left without blocks.
 */
export function convertToBedrockMessages(messages: readonly ModelMessage[]): BedrockMessage[] {
  const result: BedrockMessage[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content: BedrockContentBlock[] =
      message.role === 'assistant'
        ? message.content.flatMap(convertAssistantPart)
        : message.role === 'user'
          ? message.content.flatMap(convertUserPart)
          : message.content.map(convertToolResult);
    if (content.length === 0) continue;
    const previous = result.at(-1);
    if (previous !== undefined && previous.role === role) previous.content.push(...content);
    else result.push({ role, content });
  }
  return result;
}

function convertUserPart(part: TextPart | ImagePart): Array<BedrockTextBlock | BedrockImageBlock> {
  if (part.type === 'image') return [imageBlock(part)];
  return part.text.trim() === '' ? [] : [{ text: part.text }];
}

function convertAssistantPart(part: AssistantContentPart): BedrockContentBlock[] {
  switch (part.type) {
    case 'text':
      return part.text.trim() === '' ? [] : [{ text: part.text }];
    case 'tool_call':
      return [{ toolUse: { toolUseId: part.id, name: part.name, input: part.args } }];
    case 'thinking':
      // Only Bedrock's own reasoning can be verified by the model; reasoning without a
      // signature (an aborted block) would be rejected, as on Anthropic's own API.
      if (part.providerProtocol !== BEDROCK_PROTOCOL) return [];
      if (part.redacted !== undefined) return [{ reasoningContent: { redactedContent: part.redacted } }];
      if (part.signature !== undefined && part.signature !== '') return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
      return [];
    case 'server_tool':
      // Anthropic server-tool blocks have no Converse form.
      return [];
  }
}

function convertToolResult(part: ToolResultPart): BedrockContentBlock {
  const content = part.content.flatMap(convertUserPart);
  return {
    toolResult: {
      toolUseId: part.toolCallId,
      // An empty result is still an answer: Converse wants at least one block.
      content: content.length > 0 ? content : [{ text: '(no output)' }],
      ...(part.isError === true ? { status: 'error' as const } : {}),
    },
  };
}

function imageBlock(part: ImagePart): BedrockImageBlock {
  const format = FORMATS[part.mimeType.toLowerCase()];
  if (format === undefined) {
    throw new BedrockRequestError(`an image of type ${part.mimeType} cannot be sent to Bedrock: the Converse API takes PNG, JPEG, GIF or WebP; convert it first`);
  }
  return { image: { format, source: { bytes: part.data } } };
}
