import { z } from 'zod';
import { schemaByType } from '../schema-by-type.js';

/**
 * One `chat.completion.chunk` as a lenient schema
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming). Compatible
 * servers add and omit fields freely, so only the fields the parser reads are checked,
 * each optional and nullable; unknown fields (`annotations`, `audio`, `logprobs`,
 * `service_tier`, usage details) and content parts of types not read pass. A read field
 * of the wrong type is a clear error naming it, not a TypeError.
 */

/** Token usage as OpenAI and the compatible servers report it. */
export const chatUsageSchema = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
  /** OpenAI: `cached_tokens` are prompt tokens read from the cache (included in prompt_tokens). */
  prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
  /** OpenAI: `reasoning_tokens` are part of completion_tokens. */
  completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
  /** DeepSeek (https://api-docs.deepseek.com/api/create-chat-completion): cache hits, included in prompt_tokens. */
  prompt_cache_hit_tokens: z.number().nullish(),
  /** Moonshot: cache hits at the top level of usage, included in prompt_tokens. */
  cached_tokens: z.number().nullish(),
});

export type ChatUsage = z.infer<typeof chatUsageSchema>;

/** One piece of a tool call inside a streamed delta. */
export const chatToolCallDeltaSchema = z.object({
  /** Which call this piece belongs to; some servers omit it. */
  index: z.number().nullish(),
  /** Present on the first piece of a call; some servers send "" or omit it. */
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export type ChatToolCallDelta = z.infer<typeof chatToolCallDeltaSchema>;

/** Parts not read (`reference`, `image_url`, later types) whatever their fields; `type` becomes `other`. */
const unreadPart = z.looseObject({ type: z.string() }).transform(() => ({ type: 'other' as const }));

/** A typed part of an array-valued `delta.content` (Mistral; see read-openai-chat-content.ts), checked per type. */
const chatDeltaContentPartSchema = schemaByType(
  {
    text: z.object({ type: z.literal('text'), text: z.string().nullish() }),
    /** Mistral reasoning: text parts nested in a `thinking` part. */
    thinking: z.object({
      type: z.literal('thinking'),
      thinking: z.union([z.string(), z.array(schemaByType({ text: z.object({ type: z.literal('text'), text: z.string().nullish() }) }, unreadPart))]).nullish(),
    }),
  },
  unreadPart,
);

/** `delta.content`: a string (OpenAI) or an array of typed parts (Mistral reasoning models). */
export const chatDeltaContentSchema = z.union([z.string(), z.array(chatDeltaContentPartSchema)]);

export type ChatDeltaContent = z.infer<typeof chatDeltaContentSchema>;

/** A vendor error object in an SSE frame; a string on some servers. */
const chatStreamErrorSchema = z.union([
  z.string(),
  z.object({
    message: z.string().nullish(),
    type: z.string().nullish(),
    /** OpenAI uses strings (`context_length_exceeded`); OpenRouter and vLLM put the HTTP status here. */
    code: z.union([z.string(), z.number()]).nullish(),
    param: z.string().nullish(),
  }),
]);

export const chatChunkSchema = z.object({
  id: z.string().nullish(),
  choices: z
    .array(
      z.object({
        index: z.number().nullish(),
        delta: z
          .object({
            content: chatDeltaContentSchema.nullish(),
            /** OpenAI: the model's refusal text, instead of content. */
            refusal: z.string().nullish(),
            /** DeepSeek, Qwen, llama.cpp, older vLLM: reasoning text. */
            reasoning_content: z.string().nullish(),
            /** OpenRouter, Ollama, Groq, newer vLLM: reasoning text. */
            reasoning: z.string().nullish(),
            tool_calls: z.array(chatToolCallDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: chatUsageSchema.nullish(),
  /** Groq reports usage here on the last chunk (https://console.groq.com/docs/openai). */
  x_groq: z.object({ usage: chatUsageSchema.nullish() }).nullish(),
  /** A mid-stream failure (OpenAI, vLLM, OpenRouter). */
  error: chatStreamErrorSchema.nullish(),
  /**
   * The bare error fields of an `event: error` frame that has no `error` wrapper: read
   * only in such a frame (see bareError in parse-openai-chat-stream.ts), so any shape passes in other chunks.
   */
  message: z.unknown().optional(),
  code: z.unknown().optional(),
  type: z.unknown().optional(),
});

export type ChatChunk = z.infer<typeof chatChunkSchema>;

