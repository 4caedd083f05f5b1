import { z } from 'zod';
import { ContentBlockSchema } from './content.js';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, SessionIdSchema, agentdMeta } from './meta.js';

/*
 * Prompt turns (https://agentclientprotocol.com/protocol/v1/prompt-turn): `session/prompt`
 * runs a turn and answers when it ends; progress streams as `session/update`. ACP's
 * `session/cancel` is a notification; agentd adds `session/abort`, `session/steer`,
 * `session/followUp` and `session/compact` (pi's steering and follow-up queues).
 */

/** Why a turn ended (ACP `StopReason`). */
export const StopReasonSchema = z
  .enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'])
  .describe(
    'end_turn: the model finished; max_tokens: output limit hit; max_turn_requests: `maxTurns` or ' +
      'budget reached; refusal: the model refused; cancelled: cancelled or aborted by a client.',
  );
export type StopReason = z.infer<typeof StopReasonSchema>;

/** The prompt's content blocks. */
const promptBlocks = z
  .array(ContentBlockSchema)
  .describe('The user message. `text` and `resource_link` always work; others per `promptCapabilities`.');

/** agentd's `_meta.agentd` on `session/prompt`. Strict: typos are errors. */
export const AgentdPromptMetaSchema = z
  .strictObject({
    delivery: z
      .enum(['steer', 'followUp'])
      .optional()
      .describe(
        'If the session is busy: `steer` delivers this prompt into the running turn, `followUp` queues it ' +
          'for when the turn would end; either way the request then answers with the running turn\'s ' +
          'stopReason. Absent: a busy session answers SessionBusy (-32010).',
      ),
    queue: z
      .boolean()
      .optional()
      .describe(
        'true: queue the prompt as headless work and answer at once, before it runs, with `stopReason` ' +
          '`end_turn` and `_meta.agentd.outcome` `queued` with the job id. A daemon with a free turn slot ' +
          '(`cluster.concurrency`) takes the job and runs the prompt as its own turn, after the turns the ' +
          'session already has; follow it with `session/load`. Not combined with `delivery`.',
      ),
  })
  .describe('agentd options on `session/prompt`.');
export type AgentdPromptMeta = z.infer<typeof AgentdPromptMetaSchema>;

/** `session/prompt` params. */
export const PromptRequestSchema = z
  .looseObject({
    sessionId: SessionIdSchema,
    prompt: promptBlocks,
    _meta: agentdMeta(AgentdPromptMetaSchema, 'How to deliver the prompt to a busy session.'),
  })
  .describe('Params of `session/prompt`.');
export type PromptRequest = z.infer<typeof PromptRequestSchema>;

/** agentd's `_meta.agentd` on the `session/prompt` result: set when the budget stopped the turn, or the prompt was queued. */
export const AgentdPromptResponseMetaSchema = z
  .looseObject({
    outcome: z
      .enum(['budget_exceeded', 'queued'])
      .optional()
      .describe(
        '`budget_exceeded`: the session\'s budget stopped the turn. `queued`: the prompt was queued ' +
          '(`_meta.agentd.queue`) and has not run yet; `stopReason` is then `end_turn` for the request alone, ' +
          'and the turn\'s own end is its `turn_end` event and its stored turn.',
      ),
    message: z.string().optional().describe('What was spent against which budget, for the user.'),
    jobId: z
      .string()
      .optional()
      .describe('With `queued`: the job\'s id, which is also the id of the turn it starts (its `turn_start` and `turn_end` events carry it).'),
    queue: z
      .enum(['in-process', 'pg-boss'])
      .optional()
      .describe('With `queued`: where the job waits — this daemon\'s memory (SQLite store: lost if it stops first) or pg-boss in the PostgreSQL store, taken by any daemon.'),
  })
  .describe('agentd details of how a turn ended, or that it was queued.');
export type AgentdPromptResponseMeta = z.infer<typeof AgentdPromptResponseMetaSchema>;

/** `session/prompt` result, sent when the turn ends. */
export const PromptResponseSchema = z
  .looseObject({ stopReason: StopReasonSchema, _meta: agentdMeta(AgentdPromptResponseMetaSchema, 'Why the turn ended, when agentd stopped it.') })
  .describe('Result of `session/prompt`.');
export type PromptResponse = z.infer<typeof PromptResponseSchema>;

/** `session/cancel` params. */
export const CancelNotificationSchema = z
  .looseObject({ sessionId: SessionIdSchema, _meta: MetaSchema })
  .describe('Params of `session/cancel`.');
export type CancelNotification = z.infer<typeof CancelNotificationSchema>;

/** `session/abort` params. */
export const AbortSessionRequestSchema = z
  .strictObject({
    sessionId: SessionIdSchema,
    keepQueues: z
      .boolean()
      .optional()
      .describe('true keeps queued steering and follow-up messages for the next turn; default drops them.'),
  })
  .describe('Params of `session/abort`.');
export type AbortSessionRequest = z.infer<typeof AbortSessionRequestSchema>;

/** `session/abort` result, sent once nothing runs any more. */
export const AbortSessionResponseSchema = z
  .strictObject({ stopped: z.literal(true).describe('Always true: the turn, its tools and its requests have ended.') })
  .describe('Result of `session/abort`.');
export type AbortSessionResponse = z.infer<typeof AbortSessionResponseSchema>;

/** `session/steer` params. */
export const SteerRequestSchema = z
  .strictObject({
    sessionId: SessionIdSchema,
    prompt: promptBlocks,
    interrupt: z
      .boolean()
      .optional()
      .describe('true stops the current model response and tool calls so the message is seen at once.'),
  })
  .describe('Params of `session/steer`.');
export type SteerRequest = z.infer<typeof SteerRequestSchema>;

/** `session/followUp` params. */
export const FollowUpRequestSchema = z
  .strictObject({ sessionId: SessionIdSchema, prompt: promptBlocks })
  .describe('Params of `session/followUp`.');
export type FollowUpRequest = z.infer<typeof FollowUpRequestSchema>;

/** Result of `session/steer` and `session/followUp`. */
export const QueuedResponseSchema = z
  .strictObject({ queued: z.number().int().min(0).describe('Messages now waiting in that queue, this one included.') })
  .describe('Result of `session/steer` and `session/followUp`.');
export type QueuedResponse = z.infer<typeof QueuedResponseSchema>;

/** `session/compact` params. */
export const CompactSessionRequestSchema = z
  .strictObject({ sessionId: SessionIdSchema })
  .describe('Params of `session/compact`.');
export type CompactSessionRequest = z.infer<typeof CompactSessionRequestSchema>;

/** `session/compact` result. */
export const CompactSessionResponseSchema = z
  .strictObject({ compacted: z.boolean().describe('false when there was too little history to compact.') })
  .describe('Result of `session/compact`.');
export type CompactSessionResponse = z.infer<typeof CompactSessionResponseSchema>;

const examplePrompt = { sessionId: 'ses_01J9Z', prompt: [{ type: 'text', text: 'Also update the changelog.' }] };
const sessionErrors = [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound] as const;

export const promptMethod = defineMethod({
  method: 'session/prompt',
  clientMethod: 'prompt',
  direction: 'client-to-daemon',
  kind: 'request',
  params: PromptRequestSchema,
  result: PromptResponseSchema,
  summary: 'Run a turn with a user message; progress streams as `session/update`; answers when the turn ends.',
  acp: true,
  feature: 'prompting',
  errors: [
    ErrorCodes.InvalidParams,
    ErrorCodes.ResourceNotFound,
    ErrorCodes.SessionBusy,
    ErrorCodes.ProviderNotConfigured,
    ErrorCodes.ProviderError,
  ],
  example: {
    params: {
      sessionId: 'ses_01J9Z',
      prompt: [
        { type: 'text', text: 'Why does the parser test fail?' },
        { type: 'resource_link', uri: 'file:///home/ada/project/src/parser.ts', name: 'parser.ts' },
      ],
    },
    result: { stopReason: 'end_turn' },
  },
});

export const cancelMethod = defineMethod({
  method: 'session/cancel',
  clientMethod: 'cancel',
  direction: 'client-to-daemon',
  kind: 'notification',
  params: CancelNotificationSchema,
  result: undefined,
  summary: 'Cancel the running turn; the pending `session/prompt` answers with stopReason `cancelled`.',
  acp: true,
  feature: 'prompting',
  errors: [],
  example: { params: { sessionId: 'ses_01J9Z' } },
});

export const abortMethod = defineMethod({
  method: 'session/abort',
  clientMethod: 'abort',
  direction: 'client-to-daemon',
  kind: 'request',
  params: AbortSessionRequestSchema,
  result: AbortSessionResponseSchema,
  summary: 'Stop the running turn now (model stream, tools, pending client requests); answers once fully stopped.',
  acp: false,
  feature: 'steering',
  errors: sessionErrors,
  example: { params: { sessionId: 'ses_01J9Z' }, result: { stopped: true } },
});

export const steerMethod = defineMethod({
  method: 'session/steer',
  clientMethod: 'steer',
  direction: 'client-to-daemon',
  kind: 'request',
  params: SteerRequestSchema,
  result: QueuedResponseSchema,
  summary: 'Queue a message for the running turn; it is delivered at the next safe point (after the current tool calls).',
  acp: false,
  feature: 'steering',
  errors: sessionErrors,
  example: { params: examplePrompt, result: { queued: 1 } },
});

export const followUpMethod = defineMethod({
  method: 'session/followUp',
  clientMethod: 'followUp',
  direction: 'client-to-daemon',
  kind: 'request',
  params: FollowUpRequestSchema,
  result: QueuedResponseSchema,
  summary: 'Queue a message for when the agent would otherwise stop; it continues the same turn.',
  acp: false,
  feature: 'steering',
  errors: sessionErrors,
  example: { params: examplePrompt, result: { queued: 2 } },
});

export const compactMethod = defineMethod({
  method: 'session/compact',
  clientMethod: 'compact',
  direction: 'client-to-daemon',
  kind: 'request',
  params: CompactSessionRequestSchema,
  result: CompactSessionResponseSchema,
  summary: 'Summarise older history now to free context; progress is reported as compaction updates and events.',
  acp: false,
  feature: 'steering',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound, ErrorCodes.SessionBusy, ErrorCodes.ProviderError],
  example: { params: { sessionId: 'ses_01J9Z' }, result: { compacted: true } },
});
