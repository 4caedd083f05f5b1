import { z } from 'zod';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, SessionIdSchema } from './meta.js';

/*
 * `elicitation/create` (https://agentclientprotocol.com/protocol/v1/draft/elicitation):
 * the daemon asks a client that declared `elicitation.form` to show the user a form. agentd
 * sends it when an MCP server asks for input during one of its tool calls
 * (https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation); only
 * the session-scoped form mode is used.
 */

/** One primitive field of the form (string, number, integer, boolean, or a string enum). */
const ElicitationPropertySchema = z.looseObject({}).describe('A form field: a JSON Schema of a primitive type, as MCP allows.');

/** The form to show. */
export const ElicitationSchemaSchema = z
  .looseObject({
    type: z.literal('object').optional().describe('Always "object".'),
    title: z.string().nullish().describe('Title of the form.'),
    description: z.string().nullish().describe('What the form is for.'),
    properties: z.record(z.string(), ElicitationPropertySchema).optional().describe('The fields, by name (none when absent).'),
    required: z.array(z.string()).nullish().describe('Names of the fields that must be filled.'),
    _meta: MetaSchema,
  })
  .describe('A JSON Schema object of primitive fields: the form to render.');

const message = z.string().describe('What input is needed, in the words of the MCP server.');
const formMode = z.literal('form').describe('A form the client renders from `requestedSchema`.');

/**
 * `elicitation/create` params: ACP's form mode, in its two scopes. agentd sends only the
 * session scope (an MCP server asked during a tool call of the session).
 */
export const CreateElicitationRequestSchema = z
  .union([
    z
      .looseObject({
        mode: formMode,
        sessionId: SessionIdSchema.describe('The session the request belongs to.'),
        toolCallId: z.string().nullish().describe('The tool call during which the MCP server asked.'),
        message,
        requestedSchema: ElicitationSchemaSchema,
        _meta: MetaSchema,
      })
      .describe('A form tied to a session, and to the tool call that asked.'),
    z
      .looseObject({
        mode: formMode,
        requestId: z.union([z.string(), z.number()]).describe('The JSON-RPC request it belongs to.'),
        message,
        requestedSchema: ElicitationSchemaSchema,
        _meta: MetaSchema,
      })
      .describe('A form tied to a request outside any session (agentd does not send these).'),
  ])
  .describe('Params of `elicitation/create`.');
export type CreateElicitationRequest = z.infer<typeof CreateElicitationRequestSchema>;

/** `elicitation/create` result: what the user did. */
export const CreateElicitationResponseSchema = z
  .discriminatedUnion('action', [
    z
      .looseObject({
        action: z.literal('accept'),
        content: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
          .nullish()
          .describe('The values, by field name, matching the requested schema.'),
        _meta: MetaSchema,
      })
      .describe('The user filled the form.'),
    z.looseObject({ action: z.literal('decline'), _meta: MetaSchema }).describe('The user refused.'),
    z.looseObject({ action: z.literal('cancel'), _meta: MetaSchema }).describe('The user dismissed the form without choosing.'),
  ])
  .describe('Result of `elicitation/create`.');
export type CreateElicitationResponse = z.infer<typeof CreateElicitationResponseSchema>;

export const createElicitationMethod = defineMethod({
  method: 'elicitation/create',
  clientMethod: 'createElicitation',
  direction: 'daemon-to-client',
  kind: 'request',
  params: CreateElicitationRequestSchema,
  result: CreateElicitationResponseSchema,
  summary: 'Ask the user to fill a form for an MCP server (only to clients that declared `elicitation.form`).',
  acp: true,
  feature: 'mcp',
  errors: [],
  example: {
    params: {
      mode: 'form',
      sessionId: 'ses_01J9Z',
      toolCallId: 'call_7',
      message: 'Which repository should the issue go to?',
      requestedSchema: { type: 'object', properties: { repo: { type: 'string', description: 'owner/name' } }, required: ['repo'] },
    },
    result: { action: 'accept', content: { repo: 'ada/agentd' } },
  },
});
