import { z } from 'zod';

/**
 * The stream events this protocol reads, as lenient schemas
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming): unknown fields are
 * accepted and left out of the value (only a content block is kept whole: server-tool
 * blocks are replayed as received); every field read here is typed, so a malformed event
 * is a clear error and not a TypeError. Event types not listed (`ping`, types added later) are skipped unchecked.
 */

const count = z.number().nullish();

/** `usage` of `message_start.message` and (cumulative) of `message_delta`. */
export const anthropicUsageSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_read_input_tokens: count,
  cache_creation_input_tokens: count,
});

/** A content block as `content_block_start` announces it; its fields depend on `type`. */
const contentBlockSchema = z.looseObject({ type: z.string() });

const deltaSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  partial_json: z.string().optional(),
});

export const anthropicStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: z.object({ usage: anthropicUsageSchema.nullish() }).nullish() }),
  z.object({ type: z.literal('content_block_start'), index: z.number(), content_block: contentBlockSchema }),
  z.object({ type: z.literal('content_block_delta'), index: z.number(), delta: deltaSchema }),
  z.object({ type: z.literal('content_block_stop'), index: z.number() }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish() }).nullish(),
    usage: anthropicUsageSchema.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({
    type: z.literal('error'),
    error: z.object({ type: z.string().optional(), message: z.string().optional() }).nullish(),
  }),
]);

/** One stream event of a type this protocol reads. */
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEventSchema>;

/** The event types the schema checks; any other is skipped, as the docs ask clients to do. */
export const ANTHROPIC_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set(anthropicStreamEventSchema.options.map((option) => option.shape.type.value));
