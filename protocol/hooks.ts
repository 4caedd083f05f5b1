import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { JsonObjectSchema, SessionIdSchema } from './meta.js';
import { CallToolResponseSchema } from './tools.js';

/*
 * Tool-call hooks (agentd extension, after Claude Code's PreToolUse / PostToolUse hooks,
 * https://docs.anthropic.com/en/docs/claude-code/hooks): a client registers for events
 * and the daemon asks it before and after matching tool calls, in registration order.
 */

/** The hook points. */
export const HookEventSchema = z
  .enum(['beforeToolCall', 'afterToolCall'])
  .describe('beforeToolCall: may allow, block or rewrite arguments; afterToolCall: may replace the result.');
export type HookEvent = z.infer<typeof HookEventSchema>;

/** `hooks/register` params. */
export const RegisterHooksRequestSchema = z
  .strictObject({
    events: z.array(HookEventSchema).min(1).describe('Hook points to receive.'),
    tools: z
      .array(z.string().min(1))
      .optional()
      .describe('Tool name patterns; `*` matches any run of characters (e.g. `mcp_*`). Absent: every tool.'),
    sessionId: SessionIdSchema.optional().describe('Only this session\'s tool calls; absent: every session.'),
  })
  .describe('Params of `hooks/register`. Registering again replaces this client\'s earlier registration.');
export type RegisterHooksRequest = z.infer<typeof RegisterHooksRequestSchema>;

/** `hooks/register` result. */
export const RegisterHooksResponseSchema = z
  .strictObject({ registered: z.literal(true) })
  .describe('Result of `hooks/register`.');
export type RegisterHooksResponse = z.infer<typeof RegisterHooksResponseSchema>;

const toolCallFields = {
  sessionId: SessionIdSchema,
  toolCallId: z.string().describe('Same id as in `session/update` tool_call.'),
  name: z.string().describe('Tool name.'),
  arguments: JsonObjectSchema.describe('The arguments the tool runs (or ran) with.'),
};

/** `hooks/beforeToolCall` params. */
export const BeforeToolCallRequestSchema = z
  .strictObject(toolCallFields)
  .describe('Params of `hooks/beforeToolCall`.');
export type BeforeToolCallRequest = z.infer<typeof BeforeToolCallRequestSchema>;

/** `hooks/beforeToolCall` result. */
export const BeforeToolCallResponseSchema = z
  .strictObject({
    decision: z
      .enum(['allow', 'block', 'rewrite'])
      .describe('allow: run as is; block: do not run, the model gets `reason`; rewrite: run with `arguments`.'),
    reason: z.string().optional().describe('Why; shown to the model when blocking.'),
    arguments: JsonObjectSchema.optional().describe('Replacement arguments; required with `rewrite`.'),
  })
  .refine((answer) => answer.decision !== 'rewrite' || answer.arguments !== undefined, {
    message: 'decision "rewrite" needs `arguments` (the replacement arguments object)',
    path: ['arguments'],
  })
  .describe('Result of `hooks/beforeToolCall`.');
export type BeforeToolCallResponse = z.infer<typeof BeforeToolCallResponseSchema>;

/** `hooks/afterToolCall` params. */
export const AfterToolCallRequestSchema = z
  .strictObject({ ...toolCallFields, result: CallToolResponseSchema.describe('What the tool returned.') })
  .describe('Params of `hooks/afterToolCall`.');
export type AfterToolCallRequest = z.infer<typeof AfterToolCallRequestSchema>;

/** `hooks/afterToolCall` result. */
export const AfterToolCallResponseSchema = z
  .strictObject({ result: CallToolResponseSchema.optional().describe('Replacement result; absent keeps the original.') })
  .describe('Result of `hooks/afterToolCall`.');
export type AfterToolCallResponse = z.infer<typeof AfterToolCallResponseSchema>;

const exampleCall = { sessionId: 'ses_01J9Z', toolCallId: 'call_7', name: 'bash', arguments: { command: 'rm -rf build' } };

export const registerHooksMethod = defineMethod({
  method: 'hooks/register',
  clientMethod: 'registerHooks',
  direction: 'client-to-daemon',
  kind: 'request',
  params: RegisterHooksRequestSchema,
  result: RegisterHooksResponseSchema,
  summary: 'Receive `hooks/beforeToolCall` and/or `hooks/afterToolCall` for matching tool calls.',
  acp: false,
  feature: 'hooks',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound],
  example: { params: { events: ['beforeToolCall'], tools: ['bash'] }, result: { registered: true } },
});

export const beforeToolCallMethod = defineMethod({
  method: 'hooks/beforeToolCall',
  clientMethod: 'beforeToolCall',
  direction: 'daemon-to-client',
  kind: 'request',
  params: BeforeToolCallRequestSchema,
  result: BeforeToolCallResponseSchema,
  summary: 'Before a matching tool runs: allow it, block it, or rewrite its arguments.',
  acp: false,
  feature: 'hooks',
  errors: [ErrorCodes.RequestCancelled],
  example: { params: exampleCall, result: { decision: 'block', reason: 'Deleting build/ is not allowed here.' } },
});

export const afterToolCallMethod = defineMethod({
  method: 'hooks/afterToolCall',
  clientMethod: 'afterToolCall',
  direction: 'daemon-to-client',
  kind: 'request',
  params: AfterToolCallRequestSchema,
  result: AfterToolCallResponseSchema,
  summary: 'After a matching tool ran: see its result and optionally replace it.',
  acp: false,
  feature: 'hooks',
  errors: [ErrorCodes.RequestCancelled],
  example: {
    params: {
      ...exampleCall,
      arguments: { command: 'npm test' },
      result: { content: [{ type: 'text', text: '12 passed' }], isError: false },
    },
    result: {},
  },
});
