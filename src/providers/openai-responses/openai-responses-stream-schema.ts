import { z } from 'zod';
import { absentIfNull } from '../absent-if-null.js';
import { builtOnFirstUse } from '../built-on-first-use.js';
import { schemaByType } from '../schema-by-type.js';

/**
 * The stream events this protocol reads, as lenient schemas
 * (https://platform.openai.com/docs/api-reference/responses-streaming). Only the fields
 * the parser reads are checked, per event type and per output-item type: a read field of
 * the wrong type is a clear error naming it, while unknown fields, nulls where nothing is
 * read, output items of types the loop does not run (hosted tools, `tool_search_call`
 * with its null `call_id` and object `arguments`, types added later) and event types not
 * listed (`response.created`, `content_part.*`, hosted-tool progress) all pass. A null
 * where an optional field is read counts as absent.
 */

/** The schemas, built when the Responses protocol is first used (built-on-first-use.ts). */
export const responsesStreamSchemas = builtOnFirstUse(() => {
  const text = absentIfNull(z.string());
  const count = absentIfNull(z.number());

  const errorObject = z.object({ type: text, code: text, message: text, param: text });

  const usage = z.object({
    input_tokens: count,
    input_tokens_details: absentIfNull(z.object({ cached_tokens: count })),
    output_tokens: count,
    output_tokens_details: absentIfNull(z.object({ reasoning_tokens: count })),
  });

  const response = z.object({
    usage: absentIfNull(usage),
    incomplete_details: absentIfNull(z.object({ reason: text })),
    error: absentIfNull(errorObject),
  });

  /** The item types the loop reads, each with the fields it reads. */
  const readItems = {
    function_call: z.object({
      type: z.literal('function_call'),
      id: text,
      /** The id tool results must reference. */
      call_id: text,
      name: text,
      arguments: text,
    }),
    reasoning: z.object({
      type: z.literal('reasoning'),
      id: text,
      /** Present when `include: ['reasoning.encrypted_content']` was sent. */
      encrypted_content: text,
    }),
    /** Its text arrives as `response.output_text.delta`; the item only ends a text part. */
    message: z.object({ type: z.literal('message') }),
  };

  /**
   * Any other item: read only to tell the user about it, so its fields are taken when they
   * are strings and ignored otherwise. `type` becomes `other` (the vendor's type is
   * `itemType`) so the parser's switch over item types stays exhaustive.
   */
  const otherItem = z.looseObject({ type: z.string() }).transform((item) => ({
    type: 'other' as const,
    itemType: item.type,
    id: stringOrUndefined(item.id),
    name: stringOrUndefined(item.name),
    /** Tool search says who runs it: `server` (OpenAI) or `client` (the caller). */
    execution: stringOrUndefined(item.execution),
  }));

  /** An output item as `response.output_item.added` / `.done` carry it. */
  const outputItem = schemaByType(readItems, otherItem);

  /** A text delta; a delta that is no string is left for the mapping to ignore. */
  const delta = z.unknown().optional();

  const event = z.discriminatedUnion('type', [
    z.object({ type: z.literal('response.output_item.added'), item: outputItem }),
    z.object({ type: z.literal('response.output_item.done'), item: outputItem }),
    z.object({ type: z.literal('response.output_text.delta'), delta }),
    z.object({ type: z.literal('response.refusal.delta'), delta }),
    z.object({ type: z.literal('response.reasoning_summary_text.delta'), item_id: text, summary_index: count, delta }),
    z.object({ type: z.literal('response.reasoning_text.delta'), delta }),
    z.object({ type: z.literal('response.function_call_arguments.delta'), item_id: text, delta }),
    z.object({ type: z.literal('response.function_call_arguments.done'), item_id: text, arguments: text }),
    z.object({ type: z.literal('response.completed'), response: absentIfNull(response) }),
    z.object({ type: z.literal('response.incomplete'), response: absentIfNull(response) }),
    z.object({ type: z.literal('response.failed'), response: absentIfNull(response) }),
    // Two shapes are in use: the documented top-level `{type, code, message, param}` and a
    // nested `{type, error: {type, code, message, param}}`.
    z.object({ type: z.literal('error'), code: text, message: text, param: text, error: absentIfNull(errorObject) }),
  ]);

  /** The event types the schema checks; any other is skipped. */
  const eventTypes: ReadonlySet<string> = new Set(event.options.map((option) => option.shape.type.value));
  return { outputItem, otherItem, event, eventTypes };
});

type ResponsesSchemas = ReturnType<typeof responsesStreamSchemas>;
/** An output item as `response.output_item.added` / `.done` carry it. */
export type ResponsesOutputItem = z.output<ResponsesSchemas['outputItem']>;
/** An output item of a type the loop does not read. */
export type ResponsesOtherOutputItem = z.output<ResponsesSchemas['otherItem']>;
/** One stream event of a type this protocol reads. */
export type ResponsesStreamEvent = z.infer<ResponsesSchemas['event']>;

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
