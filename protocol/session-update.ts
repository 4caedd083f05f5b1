import { z } from 'zod';
import { ContentBlockSchema } from './content.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, SessionIdSchema, agentdMeta } from './meta.js';
import { SessionConfigOptionSchema } from './session-config.js';
import { ToolCallSchema, ToolCallUpdateSchema } from './tool-call.js';

/*
 * `session/update` (https://agentclientprotocol.com/protocol/v1/prompt-turn#3-agent-reports-output):
 * everything a turn produces, streamed to every client attached to the session. The
 * variants and their required fields mirror schema.json `SessionUpdate` one for one.
 */

/** A piece of a message (user, agent answer or agent reasoning). */
export const ContentChunkSchema = z
  .looseObject({
    content: ContentBlockSchema,
    messageId: z.string().nullish().describe('Groups the chunks of one message.'),
    _meta: MetaSchema,
  })
  .describe('A streamed piece of a message.');
export type ContentChunk = z.infer<typeof ContentChunkSchema>;

/** One task of the agent's plan. */
export const PlanEntrySchema = z
  .looseObject({
    content: z.string().describe('What the task does.'),
    priority: z.enum(['high', 'medium', 'low']).describe('Relative importance.'),
    status: z.enum(['pending', 'in_progress', 'completed']).describe('Progress.'),
    _meta: MetaSchema,
  })
  .describe('A plan entry.');
export type PlanEntry = z.infer<typeof PlanEntrySchema>;

/** A command the user can invoke (e.g. a skill as `/name`). */
export const AvailableCommandSchema = z
  .looseObject({
    name: z.string().describe('Command name without the slash.'),
    description: z.string().describe('What the command does.'),
    input: z
      .looseObject({ hint: z.string().describe('Shown while no input is typed.'), _meta: MetaSchema })
      .nullish()
      .describe('Present when the command takes free-text input.'),
    _meta: MetaSchema,
  })
  .describe('A slash command.');
export type AvailableCommand = z.infer<typeof AvailableCommandSchema>;

/** Cumulative cost of a session. */
export const CostSchema = z
  .looseObject({
    amount: z.number().describe('Total cost so far.'),
    currency: z.string().describe('ISO 4217 code, `USD` for agentd.'),
    _meta: MetaSchema,
  })
  .describe('Session cost.');
export type Cost = z.infer<typeof CostSchema>;

/** agentd's `_meta.agentd` on a session update replayed from the stored history (session/load). */
export const AgentdReplayedUpdateMetaSchema = z
  .looseObject({
    turnId: z.string().describe('The stored turn the update belongs to.'),
    interrupted: z.literal(true).optional().describe('Set when that turn was cut short (cancel, abort, a crash).'),
  })
  .describe('Where a replayed update comes from.');
export type AgentdReplayedUpdateMeta = z.infer<typeof AgentdReplayedUpdateMetaSchema>;

const update = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, shape: S, doc: string) =>
  z
    .looseObject({
      sessionUpdate: z.literal(kind),
      ...shape,
      _meta: agentdMeta(AgentdReplayedUpdateMetaSchema, 'Set on updates replayed by `session/load`: their turn.'),
    })
    .describe(doc);

/** Every kind of session update; `sessionUpdate` selects the variant. */
export const SessionUpdateSchema = z
  .discriminatedUnion('sessionUpdate', [
    update('user_message_chunk', ContentChunkSchema.shape, 'A piece of a user message (history replay and steering).'),
    update('agent_message_chunk', ContentChunkSchema.shape, 'A piece of the agent\'s answer.'),
    update('agent_thought_chunk', ContentChunkSchema.shape, 'A piece of the agent\'s reasoning.'),
    update('tool_call', ToolCallSchema.shape, 'A new tool call.'),
    update('tool_call_update', ToolCallUpdateSchema.shape, 'Progress or result of a tool call.'),
    update(
      'plan',
      { entries: z.array(PlanEntrySchema).describe('The whole plan; replaces the previous one.'), _meta: MetaSchema },
      'The agent\'s plan.',
    ),
    update(
      'available_commands_update',
      { availableCommands: z.array(AvailableCommandSchema).describe('All commands now available.'), _meta: MetaSchema },
      'The slash commands changed.',
    ),
    update(
      'current_mode_update',
      { currentModeId: z.string().describe('The new mode.'), _meta: MetaSchema },
      'The session switched mode.',
    ),
    update(
      'config_option_update',
      { configOptions: z.array(SessionConfigOptionSchema).describe('All options with current values.'), _meta: MetaSchema },
      'Session settings changed.',
    ),
    update(
      'session_info_update',
      {
        title: z.string().nullish().describe('New title; null clears it.'),
        updatedAt: z.string().nullish().describe('ISO 8601 time of the last activity.'),
        _meta: MetaSchema,
      },
      'Session metadata changed.',
    ),
    update(
      'usage_update',
      {
        used: z.number().int().min(0).describe('Tokens now in the context window.'),
        size: z.number().int().min(0).describe('Context window size in tokens.'),
        cost: CostSchema.nullish().describe('Cumulative session cost.'),
        _meta: MetaSchema,
      },
      'Context usage and cost after a model response.',
    ),
    update(
      'notice',
      {
        severity: z.string().describe('`info`, `warning`, `error` or another hint.'),
        title: z.string().min(1).describe('Short, non-empty text that stands alone.'),
        description: z.string().nullish().describe('Detail or guidance.'),
        _meta: MetaSchema,
      },
      'Information for the user that is not part of the answer; only for clients with `session.notices`.',
    ),
    update(
      'compaction_update',
      {
        compactionId: z.string().describe('Unique within the session.'),
        status: z.string().describe('`in_progress`, `completed`, `failed`, `cancelled` or another.'),
        summary: z.array(ContentBlockSchema).nullish().describe('Replaces the summary; null or [] clears it.'),
        error: z.string().nullish().describe('Why compaction failed.'),
        _meta: MetaSchema,
      },
      'Context compaction started or changed; only for clients with `session.compaction`.',
    ),
    update(
      'compaction_summary_chunk',
      {
        compactionId: z.string().describe('The compaction whose summary grows.'),
        content: ContentBlockSchema,
        _meta: MetaSchema,
      },
      'A piece of a compaction summary; only for clients with `session.compaction`.',
    ),
  ])
  .describe('A session update.');
export type SessionUpdate = z.infer<typeof SessionUpdateSchema>;
/** The variant of SessionUpdate with the given `sessionUpdate`. */
export type SessionUpdateOf<K extends SessionUpdate['sessionUpdate']> = Extract<SessionUpdate, { sessionUpdate: K }>;

/** `session/update` params. */
export const SessionNotificationSchema = z
  .looseObject({ sessionId: SessionIdSchema, update: SessionUpdateSchema, _meta: MetaSchema })
  .describe('Params of `session/update`.');
export type SessionNotification = z.infer<typeof SessionNotificationSchema>;

export const sessionUpdateMethod = defineMethod({
  method: 'session/update',
  clientMethod: 'sessionUpdate',
  direction: 'daemon-to-client',
  kind: 'notification',
  params: SessionNotificationSchema,
  result: undefined,
  summary: 'Stream what a turn produces: message chunks, tool calls, plans, usage, mode and config changes.',
  acp: true,
  feature: 'prompting',
  errors: [],
  example: {
    params: {
      sessionId: 'ses_01J9Z',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The test fails because ' } },
    },
  },
});
