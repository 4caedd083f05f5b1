import { z } from 'zod';
import { ContentBlockSchema } from './content.js';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { JsonObjectSchema, SessionIdSchema } from './meta.js';
import { ToolKindSchema } from './tool-call.js';

/*
 * Client-registered tools (agentd extension). A client registers tools; the model sees
 * them like built-in ones; when the model calls one, the daemon sends `tools/call` to the
 * registering client and waits for its answer. The result shape follows MCP's
 * CallToolResult (https://modelcontextprotocol.io/specification/2025-06-18/server/tools).
 */

/**
 * Tool names as the model vendors accept them: Anthropic and OpenAI both require
 * `^[a-zA-Z0-9_-]{1,64}$` for function/tool names.
 */
export const ToolNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, {
    error: 'tool names must be 1-64 characters of letters, digits, `_` or `-` (what model vendors accept)',
  })
  .describe('Tool name: 1-64 of `a-z A-Z 0-9 _ -`.');

/** What a tool does to the world; permission rules are written against it. */
export const ToolAccessSchema = z
  .enum(['read', 'search', 'write', 'execute', 'network'])
  .describe('Side effects of a tool, for permission rules: read, search, write, execute or network.');
export type ToolAccess = z.infer<typeof ToolAccessSchema>;

/** A JSON Schema for a tool's arguments; vendors require an object schema at the root. */
export const ToolInputSchemaSchema = z
  .looseObject({
    type: z.literal('object', { error: 'inputSchema.type must be "object": tool arguments are always a JSON object' }),
  })
  .describe('JSON Schema (draft 2020-12) of the arguments object; root `type` must be "object".');
export type ToolInputSchema = z.infer<typeof ToolInputSchemaSchema>;

/** A tool a client offers. */
export const ToolDefinitionSchema = z
  .strictObject({
    name: ToolNameSchema,
    description: z.string().min(1).describe('What the tool does and when to use it; the model reads this.'),
    inputSchema: ToolInputSchemaSchema,
    kind: ToolKindSchema.optional().describe('ACP tool category for clients\' UI; default `other`.'),
    access: ToolAccessSchema.optional().describe('Side effects for permission rules; default `execute` (asks first).'),
    sessionId: SessionIdSchema.optional().describe('Only this session sees the tool; absent: every session of the daemon.'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Fail the call after this many milliseconds; absent: the daemon\'s default.'),
  })
  .describe('A client-executed tool.');
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/** `tools/register` params. */
export const RegisterToolsRequestSchema = z
  .strictObject({ tools: z.array(ToolDefinitionSchema).min(1).describe('Tools to add or replace (same name, same scope).') })
  .describe('Params of `tools/register`.');
export type RegisterToolsRequest = z.infer<typeof RegisterToolsRequestSchema>;

/** `tools/register` result. */
export const RegisterToolsResponseSchema = z
  .strictObject({ registered: z.array(z.string()).describe('Names this request registered (added or replaced).') })
  .describe('Result of `tools/register`.');
export type RegisterToolsResponse = z.infer<typeof RegisterToolsResponseSchema>;

/** `tools/unregister` params. */
export const UnregisterToolsRequestSchema = z
  .strictObject({ names: z.array(z.string()).describe('Names this client registered.') })
  .describe('Params of `tools/unregister`.');
export type UnregisterToolsRequest = z.infer<typeof UnregisterToolsRequestSchema>;

/** `tools/unregister` result. */
export const UnregisterToolsResponseSchema = z
  .strictObject({ unregistered: z.array(z.string()).describe('Names removed; unknown names are left out.') })
  .describe('Result of `tools/unregister`.');
export type UnregisterToolsResponse = z.infer<typeof UnregisterToolsResponseSchema>;

/** `tools/list` params. */
export const ListToolsRequestSchema = z
  .strictObject({ sessionId: SessionIdSchema.optional().describe('List what this session sees; absent: daemon-wide tools.') })
  .describe('Params of `tools/list`.');
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** A tool as the model sees it. */
export const ToolInfoSchema = z
  .strictObject({
    name: z.string().describe('Name as the model sees it (MCP tools are prefixed with their server).'),
    description: z.string().describe('Description shown to the model.'),
    inputSchema: JsonObjectSchema.describe('JSON Schema of the arguments.'),
    kind: ToolKindSchema,
    access: ToolAccessSchema,
    origin: z.enum(['builtin', 'client', 'mcp']).describe('Who executes it.'),
    server: z.string().optional().describe('MCP server name, for `origin: "mcp"`.'),
  })
  .describe('A tool available to the model.');
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

/** `tools/list` result. */
export const ListToolsResponseSchema = z
  .strictObject({ tools: z.array(ToolInfoSchema).describe('Tools, sorted by name.') })
  .describe('Result of `tools/list`.');
export type ListToolsResponse = z.infer<typeof ListToolsResponseSchema>;

/** `tools/call` params (daemon → registering client). */
export const CallToolRequestSchema = z
  .strictObject({
    sessionId: SessionIdSchema,
    toolCallId: z.string().describe('Same id as in `session/update` tool_call.'),
    name: z.string().describe('The registered tool name.'),
    arguments: JsonObjectSchema.describe('Arguments, already validated against `inputSchema`.'),
  })
  .describe('Params of `tools/call`.');
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/** `tools/call` result (and the tool result hooks see). */
export const CallToolResponseSchema = z
  .strictObject({
    content: z.array(ContentBlockSchema).describe('What the model gets back; usually one text block.'),
    isError: z.boolean().optional().describe('true if the tool failed; the content explains why to the model.'),
  })
  .describe('Result of `tools/call`.');
export type CallToolResponse = z.infer<typeof CallToolResponseSchema>;

const exampleTool = {
  name: 'open_in_editor',
  description: 'Open a file in the user\'s editor at a line.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
    required: ['path'],
  },
  kind: 'other',
  access: 'read',
};

export const registerToolsMethod = defineMethod({
  method: 'tools/register',
  clientMethod: 'registerTools',
  direction: 'client-to-daemon',
  kind: 'request',
  params: RegisterToolsRequestSchema,
  result: RegisterToolsResponseSchema,
  summary: 'Offer tools that this client executes; they disappear when the client disconnects.',
  acp: false,
  feature: 'tools',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound],
  example: { params: { tools: [exampleTool] }, result: { registered: ['open_in_editor'] } },
});

export const unregisterToolsMethod = defineMethod({
  method: 'tools/unregister',
  clientMethod: 'unregisterTools',
  direction: 'client-to-daemon',
  kind: 'request',
  params: UnregisterToolsRequestSchema,
  result: UnregisterToolsResponseSchema,
  summary: 'Remove tools this client registered.',
  acp: false,
  feature: 'tools',
  errors: [ErrorCodes.InvalidParams],
  example: { params: { names: ['open_in_editor'] }, result: { unregistered: ['open_in_editor'] } },
});

export const listToolsMethod = defineMethod({
  method: 'tools/list',
  clientMethod: 'listTools',
  direction: 'client-to-daemon',
  kind: 'request',
  params: ListToolsRequestSchema,
  result: ListToolsResponseSchema,
  summary: 'List the tools the model can call: built-in, client-registered and MCP.',
  acp: false,
  feature: 'tools',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound],
  example: {
    params: { sessionId: 'ses_01J9Z' },
    result: {
      tools: [
        { ...exampleTool, origin: 'client' },
        {
          name: 'read',
          description: 'Read a text file.',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          kind: 'read',
          access: 'read',
          origin: 'builtin',
        },
      ],
    },
  },
});

export const callToolMethod = defineMethod({
  method: 'tools/call',
  clientMethod: 'callTool',
  direction: 'daemon-to-client',
  kind: 'request',
  params: CallToolRequestSchema,
  result: CallToolResponseSchema,
  summary: 'Run a tool this client registered; answer with its content (set `isError` for a failed tool).',
  acp: false,
  feature: 'tools',
  errors: [ErrorCodes.RequestCancelled, ErrorCodes.ToolError],
  example: {
    params: { sessionId: 'ses_01J9Z', toolCallId: 'call_9', name: 'open_in_editor', arguments: { path: 'src/a.ts', line: 3 } },
    result: { content: [{ type: 'text', text: 'Opened src/a.ts at line 3.' }] },
  },
});
