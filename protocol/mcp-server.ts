import { z } from 'zod';
import { MetaSchema } from './meta.js';

/*
 * MCP servers a client asks the agent to connect to for a session (schema.json
 * `McpServer`; https://agentclientprotocol.com/protocol/v1/session-setup#mcp-servers).
 * stdio has no `type` in ACP, so the union cannot be discriminated on it.
 */

/** A name/value pair (environment variable). */
export const EnvVariableSchema = z
  .looseObject({
    name: z.string().describe('Variable name.'),
    value: z.string().describe('Variable value.'),
    _meta: MetaSchema,
  })
  .describe('An environment variable.');
export type EnvVariable = z.infer<typeof EnvVariableSchema>;

/** An HTTP header sent to an http or sse MCP server. */
export const HttpHeaderSchema = z
  .looseObject({
    name: z.string().describe('Header name.'),
    value: z.string().describe('Header value.'),
    _meta: MetaSchema,
  })
  .describe('An HTTP header.');
export type HttpHeader = z.infer<typeof HttpHeaderSchema>;

/** An MCP server over streamable HTTP (needs `mcpCapabilities.http`). */
export const McpServerHttpSchema = z
  .looseObject({
    type: z.literal('http'),
    name: z.string().describe('Server name; prefixes its tool names.'),
    url: z.string().describe('Endpoint URL.'),
    headers: z.array(HttpHeaderSchema).describe('Headers for every request (may be empty).'),
    _meta: MetaSchema,
  })
  .describe('An MCP server over streamable HTTP.');
export type McpServerHttp = z.infer<typeof McpServerHttpSchema>;

/** An MCP server over the legacy HTTP+SSE transport (needs `mcpCapabilities.sse`). */
export const McpServerSseSchema = z
  .looseObject({
    type: z.literal('sse'),
    name: z.string().describe('Server name; prefixes its tool names.'),
    url: z.string().describe('SSE endpoint URL.'),
    headers: z.array(HttpHeaderSchema).describe('Headers for every request (may be empty).'),
    _meta: MetaSchema,
  })
  .describe('An MCP server over HTTP+SSE.');
export type McpServerSse = z.infer<typeof McpServerSseSchema>;

/** An MCP server the daemon starts as a child process. */
export const McpServerStdioSchema = z
  .looseObject({
    name: z.string().describe('Server name; prefixes its tool names.'),
    command: z.string().describe('Absolute path of the executable; a relative one is refused (-32602, naming the server).'),
    args: z.array(z.string()).describe('Command-line arguments (may be empty).'),
    env: z.array(EnvVariableSchema).describe('Extra environment variables (may be empty).'),
    _meta: MetaSchema,
  })
  .describe('An MCP server over stdio.');
export type McpServerStdio = z.infer<typeof McpServerStdioSchema>;

/** Any MCP server configuration. */
export const McpServerSchema = z
  .union([McpServerHttpSchema, McpServerSseSchema, McpServerStdioSchema], {
    error:
      'expected an MCP server: {name, command, args, env} for stdio, or ' +
      '{type: "http" | "sse", name, url, headers}',
  })
  .describe('An MCP server to connect to: stdio, http or sse.');
export type McpServer = z.infer<typeof McpServerSchema>;
