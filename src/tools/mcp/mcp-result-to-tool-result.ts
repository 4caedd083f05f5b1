import type { ToolResult } from '../tool.js';
import { contentBlocksToResult, type WireContentBlock } from '../remote/content-blocks-to-result.js';

/** An MCP `CallToolResult` as the SDK returns it (already validated), or the pre-2024-11 `{toolResult}` form. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: unknown;
  toolResult?: unknown;
}

/**
 * Passes an MCP tool result through as content (text, image, embedded resources;
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result).
 * A result with only `structuredContent`, or in the old `toolResult` form, becomes its
 * JSON text so the model still sees it.
 */
export function mcpResultToToolResult(result: McpCallResult): ToolResult {
  const isError = result.isError === true;
  const blocks = (result.content ?? []) as WireContentBlock[];
  if (blocks.length > 0) return contentBlocksToResult(blocks, isError);
  const data = result.structuredContent ?? result.toolResult;
  const text = data === undefined ? '(the tool returned no content)' : JSON.stringify(data, null, 2);
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}
