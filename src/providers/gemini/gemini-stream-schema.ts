import { z } from 'zod';

/**
 * One streamed GenerateContentResponse as a lenient schema
 * (https://ai.google.dev/api/generate-content#generatecontentresponse): unknown fields
 * are accepted and left out of the value, and every field read here is typed, so a malformed chunk is a clear error and not
 * a TypeError. A function call's `args` stays unknown: arguments that are no object are
 * the model's mistake, answered to it as an argument error, not a broken stream.
 */

const partialArgSchema = z.object({
  /** RFC 9535 path of the leaf, e.g. `$.recipe.steps[0]`. */
  jsonPath: z.string().optional(),
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  boolValue: z.boolean().optional(),
  /** `"NULL_VALUE"` (google.protobuf.NullValue) for a JSON null. */
  nullValue: z.string().nullish(),
  /** True when the next PartialArg for the same path continues this string. */
  willContinue: z.boolean().optional(),
});

const functionCallSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  args: z.unknown().optional(),
  /** Leaves of the arguments streamed so far (FunctionCall.partialArgs). */
  partialArgs: z.array(partialArgSchema).optional(),
  /** True while more parts of this call follow. */
  willContinue: z.boolean().optional(),
});

export type GeminiStreamedFunctionCall = z.infer<typeof functionCallSchema>;

const partSchema = z.object({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: functionCallSchema.optional(),
});

export type GeminiStreamedPart = z.infer<typeof partSchema>;

const usageMetadataSchema = z.object({
  promptTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
  toolUsePromptTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
});

export const geminiStreamChunkSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(partSchema).optional() }).optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
  usageMetadata: usageMetadataSchema.optional(),
  responseId: z.string().optional(),
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

export type GeminiStreamChunk = z.infer<typeof geminiStreamChunkSchema>;
