import { z } from 'zod';
import { absentIfNull } from '../absent-if-null.js';
import { builtOnFirstUse } from '../built-on-first-use.js';
import { schemaByType } from '../schema-by-type.js';

/**
 * The stream events this protocol reads, as lenient schemas
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming). Only the fields the
 * parser reads are checked, per event type, content-block type and delta type: a read
 * field of the wrong type is a clear error naming it, while unknown fields, nulls where
 * nothing is read, block and delta types not read here (server-tool blocks,
 * `citations_delta`, types added later) and event types not listed (`ping`) all pass, as
 * the docs ask clients to allow. A null where an optional field is read counts as absent.
 */

/** The schemas, built when the Anthropic Messages protocol is first used (built-on-first-use.ts). */
export const anthropicStreamSchemas = builtOnFirstUse(() => {
  const count = absentIfNull(z.number());
  const text = absentIfNull(z.string());

  /** `usage` of `message_start.message` and (cumulative) of `message_delta`. */
  const usage = z.object({
    input_tokens: count,
    output_tokens: count,
    cache_read_input_tokens: count,
    cache_creation_input_tokens: count,
  });

  /** The block types the parser reads, each with the fields it reads. */
  const readBlocks = {
    text: z.object({ type: z.literal('text'), text }),
    thinking: z.object({ type: z.literal('thinking'), thinking: text, signature: text }),
    /** Arrives whole; `data` is replayed unchanged. */
    redacted_thinking: z.object({ type: z.literal('redacted_thinking'), data: text }),
    tool_use: z.object({ type: z.literal('tool_use'), id: text, name: text, input: z.unknown() }),
  };

  /**
   * Any other block (server-tool blocks, types added later) is kept whole: server-tool
   * blocks are replayed as received. `type` becomes `other` (the vendor's is `blockType`)
   * so the parser's switch stays exhaustive.
   */
  const otherBlock = z.looseObject({ type: z.string() }).transform((block) => ({ type: 'other' as const, blockType: block.type, block }));

  /** A content block as `content_block_start` announces it. */
  const contentBlockSchema = schemaByType(readBlocks, otherBlock);

  /** The delta types the parser reads; any other (`citations_delta`, later types) is skipped. */
  const deltaSchema = schemaByType(
    {
      text_delta: z.object({ type: z.literal('text_delta'), text }),
      thinking_delta: z.object({ type: z.literal('thinking_delta'), thinking: text }),
      signature_delta: z.object({ type: z.literal('signature_delta'), signature: text }),
      input_json_delta: z.object({ type: z.literal('input_json_delta'), partial_json: text }),
    },
    z.looseObject({ type: z.string() }).transform(() => ({ type: 'other' as const })),
  );

  const event = z.discriminatedUnion('type', [
    z.object({ type: z.literal('message_start'), message: absentIfNull(z.object({ usage: absentIfNull(usage) })) }),
    z.object({ type: z.literal('content_block_start'), index: z.number(), content_block: contentBlockSchema }),
    z.object({ type: z.literal('content_block_delta'), index: z.number(), delta: deltaSchema }),
    z.object({ type: z.literal('content_block_stop'), index: z.number() }),
    z.object({
      type: z.literal('message_delta'),
      delta: absentIfNull(z.object({ stop_reason: text })),
      usage: absentIfNull(usage),
    }),
    z.object({ type: z.literal('message_stop') }),
    z.object({ type: z.literal('error'), error: absentIfNull(z.object({ type: text, message: text })) }),
  ]);

  /** The event types the schema checks; any other is skipped, as the docs ask clients to do. */
  const eventTypes: ReadonlySet<string> = new Set(event.options.map((option) => option.shape.type.value));
  return { contentBlock: contentBlockSchema, delta: deltaSchema, event, eventTypes };
});

type AnthropicSchemas = ReturnType<typeof anthropicStreamSchemas>;
export type AnthropicStreamBlock = z.output<AnthropicSchemas['contentBlock']>;
export type AnthropicStreamDelta = z.output<AnthropicSchemas['delta']>;
/** One stream event of a type this protocol reads. */
export type AnthropicStreamEvent = z.infer<AnthropicSchemas['event']>;
