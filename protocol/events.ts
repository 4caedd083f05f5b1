import { z } from 'zod';
import { defineMethod } from './method-descriptor.js';
import { SessionIdSchema } from './meta.js';
import { StopReasonSchema } from './prompt.js';

/*
 * `agentd/event` (agentd extension): what ACP's `session/update` cannot carry — turn
 * boundaries, provider retries and fallbacks, circuit breakers, compaction, queues and
 * cost. Sent only to clients that set `_meta.agentd.events: true` in `initialize`, in
 * addition to (never instead of) the ACP updates.
 */

/** Token counts of one model response; the four input counts never overlap. */
export const TokenUsageSchema = z
  .strictObject({
    inputTokens: z.number().int().min(0).describe('Input billed at the normal rate (cache excluded).'),
    outputTokens: z.number().int().min(0).describe('Output, reasoning included.'),
    cacheReadTokens: z.number().int().min(0).describe('Input read from the prompt cache.'),
    cacheWriteTokens: z.number().int().min(0).describe('Input written to the prompt cache.'),
    reasoningTokens: z.number().int().min(0).describe('Of outputTokens, how many were reasoning.'),
  })
  .describe('Token usage of one model response.');
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

const turnId = z.string().describe('Id of the turn (one `session/prompt` and its follow-ups).');
const providerModel = z.string().describe('`provider/model`, e.g. `anthropic/claude-sonnet-4-5`.');

export const TurnStartEventSchema = z
  .strictObject({ type: z.literal('turn_start'), turnId })
  .describe('A turn started running.');

export const TurnEndEventSchema = z
  .strictObject({
    type: z.literal('turn_end'),
    turnId,
    stopReason: StopReasonSchema,
    error: z.string().optional().describe('Set when the turn failed (the prompt is answered with ProviderError or InternalError).'),
  })
  .describe('A turn ended; the same stopReason answers its `session/prompt`.');

export const RetryEventSchema = z
  .strictObject({
    type: z.literal('retry'),
    attempt: z.number().int().min(1).describe('The retry about to happen (1 = first retry).'),
    delayMs: z.number().int().min(0).describe('Wait before it, from `retry-after` or backoff.'),
    reason: z.string().describe('What failed, e.g. `429 rate limited`.'),
    provider: z.string().describe('Provider id.'),
    model: z.string().optional().describe('Model id; absent when the failure is not about one model.'),
  })
  .describe('A model request failed before any output and will be retried.');

export const FallbackEventSchema = z
  .strictObject({
    type: z.literal('fallback'),
    from: providerModel.describe('The model that failed.'),
    to: providerModel.describe('The `fallbackModel` now used.'),
    reason: z.string().describe('Why the primary model was given up.'),
  })
  .describe('The fallback model took over for this request.');

export const BreakerEventSchema = z
  .strictObject({
    type: z.literal('breaker'),
    provider: z.string().describe('Provider id.'),
    state: z
      .enum(['open', 'half_open', 'closed'])
      .describe('open: requests fail fast; half_open: one probe allowed; closed: healthy again.'),
  })
  .describe('A provider\'s circuit breaker changed state.');

export const CompactionEventSchema = z
  .strictObject({
    type: z.literal('compaction'),
    status: z.enum(['started', 'completed', 'failed']),
    tokensBefore: z.number().int().min(0).optional().describe('Context tokens before compaction.'),
    tokensAfter: z.number().int().min(0).optional().describe('Context tokens after (on completed).'),
    error: z.string().optional().describe('Why it failed (on failed).'),
  })
  .describe('Context compaction started, completed or failed.');

/** One message waiting in a queue. */
export const QueueItemSchema = z
  .strictObject({
    queue: z.enum(['steering', 'followUp']).describe('Which queue it waits in.'),
    preview: z.string().describe('The start of the message text.'),
  })
  .describe('A queued message.');
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const QueueEventSchema = z
  .strictObject({
    type: z.literal('queue'),
    steering: z.number().int().min(0).describe('Messages waiting for the next safe point.'),
    followUp: z.number().int().min(0).describe('Messages waiting for the turn to finish.'),
    items: z.array(QueueItemSchema).optional().describe('The waiting messages in delivery order.'),
  })
  .describe('The steering or follow-up queue changed.');

export const CostEventSchema = z
  .strictObject({
    type: z.literal('cost'),
    turnUsd: z.number().min(0).describe('Cost of this turn so far, in US dollars.'),
    sessionUsd: z.number().min(0).describe('Cost of the session so far.'),
    daemonUsd: z.number().min(0).describe('Cost of every session since the daemon started.'),
    usage: TokenUsageSchema.describe('Usage of the model response that caused this event.'),
  })
  .describe('Cost after a model response.');

export const NoticeEventSchema = z
  .strictObject({
    type: z.literal('notice'),
    level: z.enum(['info', 'warning', 'error']),
    message: z.string().describe('Plain text for the user.'),
  })
  .describe('Something the user should know that is not part of the answer.');

export const PermissionResolvedEventSchema = z
  .strictObject({
    type: z.literal('permission_resolved'),
    toolCallId: z.string().describe('The tool call whose `session/request_permission` question was settled.'),
    outcome: z
      .enum(['allow_once', 'allow_always', 'reject_once', 'reject_always', 'cancelled'])
      .describe('The answer that settled it (the first valid one of any client), or `cancelled` when the turn was stopped first.'),
  })
  .describe('A permission question asked of every client following the session was settled; the other clients\' requests were cancelled with `$/cancel_request`.');

/** Every rich event; `type` selects the variant. */
export const AgentdEventSchema = z
  .discriminatedUnion('type', [
    TurnStartEventSchema,
    TurnEndEventSchema,
    RetryEventSchema,
    FallbackEventSchema,
    BreakerEventSchema,
    CompactionEventSchema,
    QueueEventSchema,
    CostEventSchema,
    NoticeEventSchema,
    PermissionResolvedEventSchema,
  ])
  .describe('A rich agentd event.');
export type AgentdEvent = z.infer<typeof AgentdEventSchema>;
/** The variant of AgentdEvent with the given `type`. */
export type AgentdEventOf<K extends AgentdEvent['type']> = Extract<AgentdEvent, { type: K }>;

/** `agentd/event` params. */
export const AgentdEventNotificationSchema = z
  .strictObject({ sessionId: SessionIdSchema, event: AgentdEventSchema })
  .describe('Params of `agentd/event`.');
export type AgentdEventNotification = z.infer<typeof AgentdEventNotificationSchema>;

export const agentdEventMethod = defineMethod({
  method: 'agentd/event',
  clientMethod: 'event',
  direction: 'daemon-to-client',
  kind: 'notification',
  params: AgentdEventNotificationSchema,
  result: undefined,
  summary: 'Rich session events (turns, retries, fallback, breaker, compaction, queues, cost, permission questions settled) for opted-in clients.',
  acp: false,
  feature: 'events',
  errors: [],
  example: {
    params: {
      sessionId: 'ses_01J9Z',
      event: {
        type: 'retry',
        attempt: 1,
        delayMs: 2000,
        reason: '429 rate limited',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
      },
    },
  },
});
