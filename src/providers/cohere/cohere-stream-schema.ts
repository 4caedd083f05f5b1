import { z } from 'zod';
import { absentIfNull } from '../absent-if-null.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/**
 * The stream events this protocol reads, as lenient schemas (the event types of
 * `StreamedChatResponseV2` in Cohere's OpenAPI spec, `cohere-openapi.yaml` in
 * github.com/cohere-ai/cohere-developer-experience, and the `ChatStreamEventType` enum).
 * Only the fields the parser reads are checked: a read field of the wrong type is a
 * clear error naming it, while unknown fields pass and a null reads as absent. Event
 * types not listed (`debug`, types added later) are skipped unchecked.
 */

/** The schemas, built when Cohere is first used (built-on-first-use.ts). */
export const cohereStreamSchemas = builtOnFirstUse(() => {
  const text = absentIfNull(z.string());
  const count = absentIfNull(z.number());
  const index = absentIfNull(z.number());

  /** `delta.message` of an event, whose fields depend on the event type. */
  const message = <T extends z.ZodRawShape>(shape: T) => absentIfNull(z.object({ message: absentIfNull(z.object(shape)) }));

  /** `usage` of `message-end`: billed units, all tokens, and the prompt tokens that hit Cohere's cache. */
  const usage = z.object({
    billed_units: absentIfNull(z.object({ input_tokens: count, output_tokens: count })),
    tokens: absentIfNull(z.object({ input_tokens: count, output_tokens: count })),
    cached_tokens: count,
  });

  /** One source of a citation: a tool result (`tool_output`) or a document (`document`). */
  const sourceSchema = z.looseObject({
    type: text,
    id: text,
    document: absentIfNull(z.record(z.string(), z.unknown())),
    tool_output: absentIfNull(z.record(z.string(), z.unknown())),
  });

  /** A citation as `citation-start` carries it (the `Citation` schema). */
  const citation = z.object({
    start: count,
    end: count,
    text,
    sources: absentIfNull(z.array(sourceSchema)),
    type: text,
  });

  const event = z.discriminatedUnion('type', [
    z.object({ type: z.literal('message-start'), id: text }),
    z.object({
      type: z.literal('content-start'),
      index,
      delta: message({ content: absentIfNull(z.object({ type: text, text, thinking: text })) }),
    }),
    z.object({ type: z.literal('content-delta'), index, delta: message({ content: absentIfNull(z.object({ text, thinking: text })) }) }),
    z.object({ type: z.literal('content-end'), index }),
    z.object({ type: z.literal('tool-plan-delta'), delta: message({ tool_plan: text }) }),
    z.object({
      type: z.literal('tool-call-start'),
      index,
      delta: message({ tool_calls: absentIfNull(z.object({ id: text, function: absentIfNull(z.object({ name: text, arguments: text })) })) }),
    }),
    z.object({
      type: z.literal('tool-call-delta'),
      index,
      delta: message({ tool_calls: absentIfNull(z.object({ function: absentIfNull(z.object({ arguments: text })) })) }),
    }),
    z.object({ type: z.literal('tool-call-end'), index }),
    z.object({ type: z.literal('citation-start'), index, delta: message({ citations: absentIfNull(citation) }) }),
    z.object({ type: z.literal('citation-end'), index }),
    z.object({
      type: z.literal('message-end'),
      delta: absentIfNull(z.object({ finish_reason: text, usage: absentIfNull(usage), error: text })),
    }),
  ]);

  /** The event types the schema checks; any other is skipped. */
  const eventTypes: ReadonlySet<string> = new Set(event.options.map((option) => option.shape.type.value));
  return { usage, citation, event, eventTypes };
});

type CohereSchemas = ReturnType<typeof cohereStreamSchemas>;
/** `usage` of `message-end`: billed units, all tokens, and the prompt tokens that hit Cohere's cache. */
export type CohereUsage = z.output<CohereSchemas['usage']>;
/** A citation as `citation-start` carries it (the `Citation` schema). */
export type CohereCitation = z.output<CohereSchemas['citation']>;
/** One stream event of a type this protocol reads. */
export type CohereStreamEvent = z.output<CohereSchemas['event']>;
