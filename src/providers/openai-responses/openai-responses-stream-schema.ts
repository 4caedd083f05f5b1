import { z } from 'zod';

/**
 * The stream events this protocol reads, as lenient schemas
 * (https://platform.openai.com/docs/api-reference/responses-streaming): unknown fields
 * are accepted and left out of the value, every field read here is typed, so a malformed event is a clear error and not a
 * TypeError. Other event types (`response.created`, `content_part.*`, hosted-tool
 * progress, types added later) are skipped unchecked.
 */

const errorObject = z.object({
  type: z.string().nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
  param: z.string().nullish(),
});

const usage = z.object({
  input_tokens: z.number().optional(),
  input_tokens_details: z.object({ cached_tokens: z.number().optional() }).nullish(),
  output_tokens: z.number().optional(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().optional() }).nullish(),
});

const response = z.object({
  usage: usage.nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  error: errorObject.nullish(),
});

/** An output item as `response.output_item.added` / `.done` carry it. */
export const responsesOutputItemSchema = z.object({
  type: z.string(),
  id: z.string().optional(),
  /** function_call: the id tool results must reference. */
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  /** reasoning: present when `include: ['reasoning.encrypted_content']` was sent. */
  encrypted_content: z.string().nullish(),
});

export type ResponsesOutputItem = z.infer<typeof responsesOutputItemSchema>;

/** A text delta; a delta that is no string is left for the mapping to ignore. */
const delta = z.unknown().optional();

export const responsesStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('response.output_item.added'), item: responsesOutputItemSchema }),
  z.object({ type: z.literal('response.output_item.done'), item: responsesOutputItemSchema }),
  z.object({ type: z.literal('response.output_text.delta'), delta }),
  z.object({ type: z.literal('response.refusal.delta'), delta }),
  z.object({
    type: z.literal('response.reasoning_summary_text.delta'),
    item_id: z.string().optional(),
    summary_index: z.number().optional(),
    delta,
  }),
  z.object({ type: z.literal('response.reasoning_text.delta'), delta }),
  z.object({ type: z.literal('response.function_call_arguments.delta'), item_id: z.string().optional(), delta }),
  z.object({ type: z.literal('response.function_call_arguments.done'), item_id: z.string().optional(), arguments: z.string().optional() }),
  z.object({ type: z.literal('response.completed'), response: response.optional() }),
  z.object({ type: z.literal('response.incomplete'), response: response.optional() }),
  z.object({ type: z.literal('response.failed'), response: response.optional() }),
  // Two shapes are in use: the documented top-level `{type, code, message, param}` and a
  // nested `{type, error: {type, code, message, param}}`.
  z.object({
    type: z.literal('error'),
    code: z.string().nullish(),
    message: z.string().nullish(),
    param: z.string().nullish(),
    error: errorObject.nullish(),
  }),
]);

/** One stream event of a type this protocol reads. */
export type ResponsesStreamEvent = z.infer<typeof responsesStreamEventSchema>;

/** The event types the schema checks; any other is skipped. */
export const RESPONSES_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set(responsesStreamEventSchema.options.map((option) => option.shape.type.value));
