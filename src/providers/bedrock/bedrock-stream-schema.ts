import { z } from 'zod';
import { builtOnFirstUse } from '../built-on-first-use.js';

/**
 * Payloads of the ConverseStream events (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html),
 * one schema per `:event-type`. Lenient: unknown fields (the `p` padding every event
 * carries, `metrics`, `trace`) are accepted; a known field of the wrong type is an error.
 * Built when Bedrock is first used (built-on-first-use.ts).
 */
export const bedrockEventSchemas = builtOnFirstUse(() => ({
  messageStart: z.looseObject({ role: z.string() }),
  contentBlockStart: z.looseObject({
    contentBlockIndex: z.int().min(0),
    start: z.looseObject({ toolUse: z.looseObject({ toolUseId: z.string(), name: z.string() }).optional() }).optional(),
  }),
  contentBlockDelta: z.looseObject({
    contentBlockIndex: z.int().min(0),
    delta: z.looseObject({
      text: z.string().optional(),
      toolUse: z.looseObject({ input: z.string() }).optional(),
      reasoningContent: z
        .looseObject({ text: z.string().optional(), signature: z.string().optional(), redactedContent: z.string().optional() })
        .optional(),
    }),
  }),
  contentBlockStop: z.looseObject({ contentBlockIndex: z.int().min(0) }),
  messageStop: z.looseObject({ stopReason: z.string() }),
  metadata: z.looseObject({
    usage: z
      .looseObject({
        inputTokens: z.int().min(0),
        outputTokens: z.int().min(0),
        cacheReadInputTokens: z.int().min(0).optional(),
        cacheWriteInputTokens: z.int().min(0).optional(),
      })
      .optional(),
  }),
}));

type BedrockEventSchemas = ReturnType<typeof bedrockEventSchemas>;
export type BedrockEventType = keyof BedrockEventSchemas;
export type BedrockEvent = { [K in BedrockEventType]: { type: K; value: z.infer<BedrockEventSchemas[K]> } }[BedrockEventType];

export function isBedrockEventType(name: string): name is BedrockEventType {
  return Object.hasOwn(bedrockEventSchemas(), name);
}
