import type { CallToolResponse, ContentBlock } from '../../../protocol/index.js';
import type { ToolResult } from '../tool.js';

/**
 * A ToolResult as the wire's `CallToolResponse` (`{content, isError}` with ACP content
 * blocks), for `hooks/afterToolCall` and after-command hooks.
 */
export function resultToContentBlocks(result: ToolResult): CallToolResponse {
  const content = result.content.map((part): ContentBlock => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mimeType };
    return { type: 'resource', resource: { uri: part.uri, text: part.text ?? '', ...(part.mimeType ? { mimeType: part.mimeType } : {}) } };
  });
  return { content, isError: result.isError === true };
}
