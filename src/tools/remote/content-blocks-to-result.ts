import type { ImagePart, TextPart } from '../../providers/message.js';
import type { ResourcePart, ToolResult } from '../tool.js';

/**
 * A content block as ACP and MCP both define it (ACP `ContentBlock`, MCP
 * `CallToolResult.content`): text, image, audio, resource_link or an embedded resource.
 * https://agentclientprotocol.com/protocol/v1/content
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result
 */
export type WireContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string | null; description?: string | null }
  | { type: 'resource'; resource: { uri: string; text?: string; blob?: string; mimeType?: string | null } };

/**
 * Turns the content a client or an MCP server returned into a ToolResult: text and
 * images pass through, embedded text resources stay resources, and what the model
 * cannot take inline (audio, binary resources, links) is described in a line of text
 * so the model knows it exists.
 */
export function contentBlocksToResult(blocks: readonly WireContentBlock[], isError: boolean | undefined): ToolResult {
  const content = blocks.map((block): TextPart | ImagePart | ResourcePart => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return { type: 'image', data: block.data, mimeType: block.mimeType };
      case 'audio':
        return { type: 'text', text: `[audio (${block.mimeType}, ${base64Bytes(block.data)} bytes) not shown]` };
      case 'resource_link':
        return { type: 'text', text: `[resource ${block.name}: ${block.uri}${block.description ? ` — ${block.description}` : ''}]` };
      case 'resource': {
        const { uri, text, blob, mimeType } = block.resource;
        if (text !== undefined) return { type: 'resource', uri, text, ...(mimeType ? { mimeType } : {}) };
        return { type: 'text', text: `[binary resource ${uri} (${mimeType ?? 'unknown type'}, ${base64Bytes(blob ?? '')} bytes) not shown]` };
      }
    }
  });
  return isError ? { content, isError: true } : { content };
}

function base64Bytes(data: string): number {
  return Buffer.byteLength(data, 'base64');
}
