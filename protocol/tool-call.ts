import { z } from 'zod';
import { ContentBlockSchema } from './content.js';
import { MetaSchema } from './meta.js';

/*
 * ACP tool-call reporting (schema.json `ToolCall`, `ToolCallUpdate` and their parts; see
 * https://agentclientprotocol.com/protocol/v1/tool-calls). Shared by `session/update`
 * and `session/request_permission`.
 */

/** Tool category; clients pick icons and UI treatment from it. */
export const ToolKindSchema = z
  .enum(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'])
  .describe('Category of a tool.');
export type ToolKind = z.infer<typeof ToolKindSchema>;

/** Where a tool call is in its life. */
export const ToolCallStatusSchema = z
  .enum(['pending', 'in_progress', 'completed', 'failed'])
  .describe('Execution status of a tool call.');
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

/** A file a tool reads or changes, for "follow along" in editors. */
export const ToolCallLocationSchema = z
  .looseObject({
    path: z.string().describe('Absolute file path.'),
    line: z.number().int().min(0).nullish().describe('1-based line, if known.'),
    _meta: MetaSchema,
  })
  .describe('A file location a tool call touches.');
export type ToolCallLocation = z.infer<typeof ToolCallLocationSchema>;

/** Ordinary content produced by a tool. */
export const ContentSchema = z
  .looseObject({
    type: z.literal('content'),
    content: ContentBlockSchema,
    _meta: MetaSchema,
  })
  .describe('A content block produced by a tool.');
export type Content = z.infer<typeof ContentSchema>;

/** A file change, shown as a diff. */
export const DiffSchema = z
  .looseObject({
    type: z.literal('diff'),
    path: z.string().describe('Absolute path of the changed file.'),
    oldText: z.string().nullish().describe('Previous content; absent or null for a new file.'),
    newText: z.string().describe('New content.'),
    _meta: MetaSchema,
  })
  .describe('A diff of a file modification.');
export type Diff = z.infer<typeof DiffSchema>;

/** A live terminal created with ACP `terminal/create`. */
export const TerminalSchema = z
  .looseObject({
    type: z.literal('terminal'),
    terminalId: z.string().describe('Id returned by `terminal/create`.'),
    _meta: MetaSchema,
  })
  .describe('An embedded terminal.');
export type Terminal = z.infer<typeof TerminalSchema>;

/** What a tool call shows; `type` selects the variant. */
export const ToolCallContentSchema = z
  .discriminatedUnion('type', [ContentSchema, DiffSchema, TerminalSchema])
  .describe('Content of a tool call: content, diff or terminal.');
export type ToolCallContent = z.infer<typeof ToolCallContentSchema>;

const rawInput = z.unknown().optional().describe('The arguments the model sent to the tool.');
const rawOutput = z.unknown().optional().describe('What the tool returned, unformatted.');

/** A new tool call (`session/update` `tool_call`). */
export const ToolCallSchema = z
  .looseObject({
    toolCallId: z.string().describe('Unique within the session.'),
    title: z.string().describe('Human-readable summary, e.g. "Read src/main.ts".'),
    name: z.string().nullish().describe('Programmatic tool name, e.g. `read`.'),
    kind: ToolKindSchema.optional().describe('Tool category; ACP treats absent as `other`.'),
    status: ToolCallStatusSchema.optional().describe('Status; ACP treats absent as `pending`.'),
    content: z.array(ToolCallContentSchema).optional().describe('Content produced so far.'),
    locations: z.array(ToolCallLocationSchema).optional().describe('Files this call touches.'),
    rawInput,
    rawOutput,
    _meta: MetaSchema,
  })
  .describe('A tool call the model requested.');
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** A change to a known tool call; only `toolCallId` is required, other fields replace. */
export const ToolCallUpdateSchema = z
  .looseObject({
    toolCallId: z.string().describe('The tool call being updated.'),
    title: z.string().nullish().describe('New title.'),
    name: z.string().nullish().describe('Programmatic tool name.'),
    kind: ToolKindSchema.nullish().describe('New category.'),
    status: ToolCallStatusSchema.nullish().describe('New status.'),
    content: z.array(ToolCallContentSchema).nullish().describe('Replaces the content list.'),
    locations: z.array(ToolCallLocationSchema).nullish().describe('Replaces the locations list.'),
    rawInput,
    rawOutput,
    _meta: MetaSchema,
  })
  .describe('An update to an existing tool call.');
export type ToolCallUpdate = z.infer<typeof ToolCallUpdateSchema>;
