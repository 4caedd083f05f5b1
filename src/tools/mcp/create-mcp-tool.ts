import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../tool.js';
import { mcpToolName } from './mcp-tool-name.js';

/** Any object; the real check is ajv against the server's JSON Schema (`jsonSchema`). */
const anyArguments = z.record(z.string(), z.unknown());

/**
 * One tool of an MCP server as the model sees it: named `<server>__<tool>`, with the
 * server's JSON Schema, kind `other`, and `execute` access (asks first in the default
 * mode). Annotations are the server's own claims
 * (https://modelcontextprotocol.io/specification/2025-06-18/schema#toolannotations): only
 * for a server the user's config marks `trusted` does `readOnlyHint` make it a `read`,
 * flagged as a hint so the deny mode still refuses it without an allow rule. `call` runs
 * it on the server by its own name.
 */
export function createMcpTool(
  server: string,
  info: McpToolInfo,
  call: (name: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>,
  trusted = false,
): Tool {
  const readOnly = trusted && info.annotations?.readOnlyHint === true;
  const title = info.annotations?.title ?? info.title ?? info.name;
  return {
    name: mcpToolName(server, info.name),
    description: info.description ?? `Tool "${info.name}" of the MCP server "${server}".`,
    inputSchema: anyArguments,
    jsonSchema: info.inputSchema as Record<string, unknown>,
    kind: 'other',
    access: readOnly ? 'read' : 'execute',
    ...(readOnly ? { accessFromHint: true } : {}),
    title: () => `${server}: ${title}`,
    execute: (args, ctx) => call(info.name, args, ctx),
  };
}
