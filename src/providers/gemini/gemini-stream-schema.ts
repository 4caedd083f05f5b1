import { z } from 'zod';
import { absentIfNull } from '../absent-if-null.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/**
 * One streamed GenerateContentResponse as a lenient schema
 * (https://ai.google.dev/api/generate-content#generatecontentresponse). Only the fields
 * the parser reads are checked: a read field of the wrong type is a clear error naming
 * it, while unknown fields (`groundingMetadata`, `citationMetadata`, `safetyRatings`,
 * token details), nulls and parts of kinds not read here pass. A null where an optional
 * field is read counts as absent. A function call's `args` stays unknown: arguments that
 * are no object are the model's mistake, answered to it as an argument error, not a
 * broken stream.
 */

/** The schemas, built when Gemini is first used (built-on-first-use.ts). */
export const geminiStreamSchemas = builtOnFirstUse(() => {
  const text = absentIfNull(z.string());
  const count = absentIfNull(z.number());
  const flag = absentIfNull(z.boolean());

  const partialArgSchema = z.object({
    /** RFC 9535 path of the leaf, e.g. `$.recipe.steps[0]`. */
    jsonPath: text,
    stringValue: text,
    numberValue: count,
    boolValue: flag,
    /** `"NULL_VALUE"` (google.protobuf.NullValue) for a JSON null. */
    nullValue: text,
    /** True when the next PartialArg for the same path continues this string. */
    willContinue: flag,
  });

  const functionCallSchema = z.object({
    id: text,
    name: text,
    args: z.unknown().optional(),
    /** Leaves of the arguments streamed so far (FunctionCall.partialArgs). */
    partialArgs: absentIfNull(z.array(partialArgSchema)),
    /** True while more parts of this call follow. */
    willContinue: flag,
  });

  /** Part fields the parser reads, and those that only describe a part (https://ai.google.dev/api/caching#Part). */
  const READ_PART_FIELDS = new Set(['text', 'thought', 'thoughtSignature', 'functionCall', 'videoMetadata', 'partMetadata', 'mediaResolution']);

  /** Parts of Google's own tools (code execution), whose result the answer text reports. */
  const HOSTED_PART_FIELDS = new Set(['executableCode', 'codeExecutionResult']);

  const partSchema = z
    .looseObject({
      text,
      thought: flag,
      thoughtSignature: text,
      functionCall: absentIfNull(functionCallSchema),
    })
    .transform(({ text, thought, thoughtSignature, functionCall, ...rest }) => ({
      text,
      thought,
      thoughtSignature,
      functionCall,
      /** The kind of a part the parser does not read (`inlineData`, later kinds), to tell the user. */
      unreadKind: Object.keys(rest).find((key) => rest[key] != null && !READ_PART_FIELDS.has(key) && !HOSTED_PART_FIELDS.has(key)),
    }));

  const usageMetadataSchema = z.object({
    promptTokenCount: count,
    candidatesTokenCount: count,
    cachedContentTokenCount: count,
    thoughtsTokenCount: count,
    toolUsePromptTokenCount: count,
    totalTokenCount: count,
  });

  const chunk = z.object({
    candidates: absentIfNull(
      z.array(
        z.object({
          content: absentIfNull(z.object({ parts: absentIfNull(z.array(partSchema)) })),
          finishReason: text,
        }),
      ),
    ),
    promptFeedback: absentIfNull(z.object({ blockReason: text })),
    usageMetadata: absentIfNull(usageMetadataSchema),
    responseId: text,
    /** An error reported inside a 200 stream. */
    error: z
      .looseObject({
        code: z.number().optional(),
        message: z.string().optional(),
        status: z.string().optional(),
        details: z.array(z.record(z.string(), z.unknown())).optional(),
      })
      .optional(),
  });
  return { functionCall: functionCallSchema, part: partSchema, chunk };
});

type GeminiSchemas = ReturnType<typeof geminiStreamSchemas>;
export type GeminiStreamedFunctionCall = z.infer<GeminiSchemas['functionCall']>;
export type GeminiStreamedPart = z.output<GeminiSchemas['part']>;
export type GeminiStreamChunk = z.infer<GeminiSchemas['chunk']>;
