import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, SessionIdSchema, agentdMeta } from './meta.js';
import { ToolCallUpdateSchema } from './tool-call.js';

/*
 * `session/request_permission` (https://agentclientprotocol.com/protocol/v1/tool-calls#requesting-permission):
 * the daemon asks a client before a tool call the permission rules mark as "ask".
 */

/** What choosing an option means. */
export const PermissionOptionKindSchema = z
  .enum(['allow_once', 'allow_always', 'reject_once', 'reject_always'])
  .describe('Meaning of a permission option; `*_always` is remembered for the session.');
export type PermissionOptionKind = z.infer<typeof PermissionOptionKindSchema>;

/** One button shown to the user. */
export const PermissionOptionSchema = z
  .looseObject({
    optionId: z.string().describe('Sent back in the outcome.'),
    name: z.string().describe('Button label.'),
    kind: PermissionOptionKindSchema,
    _meta: MetaSchema,
  })
  .describe('A choice offered to the user.');
export type PermissionOption = z.infer<typeof PermissionOptionSchema>;

/** agentd's `_meta.agentd` on the tool call a permission question is about. */
export const AgentdPermissionToolCallMetaSchema = z
  .looseObject({
    reason: z.string().optional().describe('Why the daemon asks (e.g. the command runs unsandboxed, or the path is outside the workspace).'),
    subagentSessionId: z
      .string()
      .optional()
      .describe('Set when a sub-agent makes the call: its own session id (the question is asked on the top-level session).'),
  })
  .describe('agentd details of a tool call awaiting permission.');
export type AgentdPermissionToolCallMeta = z.infer<typeof AgentdPermissionToolCallMetaSchema>;

/** The tool call a permission question is about: a tool call update with agentd's details. */
export const PermissionToolCallSchema = ToolCallUpdateSchema.extend({
  _meta: agentdMeta(AgentdPermissionToolCallMetaSchema, 'Why it asks, and whose call it is.'),
}).describe('The tool call awaiting permission (title, kind, rawInput, ...).');
export type PermissionToolCall = z.infer<typeof PermissionToolCallSchema>;

/** `session/request_permission` params. */
export const RequestPermissionRequestSchema = z
  .looseObject({
    sessionId: SessionIdSchema,
    toolCall: PermissionToolCallSchema,
    options: z.array(PermissionOptionSchema).describe('Choices to show, in order.'),
    _meta: MetaSchema,
  })
  .describe('Params of `session/request_permission`.');
export type RequestPermissionRequest = z.infer<typeof RequestPermissionRequestSchema>;

/** The user's decision: an option, or cancelled (the turn was cancelled meanwhile). */
export const RequestPermissionOutcomeSchema = z
  .discriminatedUnion('outcome', [
    z.looseObject({ outcome: z.literal('cancelled') }).describe('The prompt turn was cancelled before the user chose.'),
    z
      .looseObject({
        outcome: z.literal('selected'),
        optionId: z.string().describe('The chosen option.'),
        _meta: MetaSchema,
      })
      .describe('The user chose an option.'),
  ])
  .describe('Outcome of a permission request.');
export type RequestPermissionOutcome = z.infer<typeof RequestPermissionOutcomeSchema>;

/** `session/request_permission` result. */
export const RequestPermissionResponseSchema = z
  .looseObject({ outcome: RequestPermissionOutcomeSchema, _meta: MetaSchema })
  .describe('Result of `session/request_permission`.');
export type RequestPermissionResponse = z.infer<typeof RequestPermissionResponseSchema>;

export const requestPermissionMethod = defineMethod({
  method: 'session/request_permission',
  clientMethod: 'requestPermission',
  direction: 'daemon-to-client',
  kind: 'request',
  params: RequestPermissionRequestSchema,
  result: RequestPermissionResponseSchema,
  summary: 'Ask the user whether a tool call may run; answer with the chosen option or `cancelled`.',
  acp: true,
  feature: 'permissions',
  errors: [ErrorCodes.RequestCancelled],
  example: {
    params: {
      sessionId: 'ses_01J9Z',
      toolCall: {
        toolCallId: 'call_7',
        title: 'Run `npm test`',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'npm test' },
      },
      options: [
        { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'allow_always', name: 'Always allow `npm test`', kind: 'allow_always' },
        { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
      ],
    },
    result: { outcome: { outcome: 'selected', optionId: 'allow_once' } },
  },
});
