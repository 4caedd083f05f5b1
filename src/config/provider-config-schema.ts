/**
 * The `providers.<id>` section of config.json: how to reach one LLM vendor (or a
 * self-hosted OpenAI-compatible server) and what to assume about its models.
 */
import { z } from 'zod';

/** A provider id: the part before the slash in `provider/model`. */
export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `provider/model`; the model part may itself contain slashes (`openrouter/meta-llama/llama-3.1-8b`). */
export const MODEL_REFERENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/;

export const ModelReferenceSchema = z.string().regex(MODEL_REFERENCE_PATTERN, {
  error: 'expected a string like "openai/gpt-4.1": a provider id, a slash, then the model id',
});

export const ProviderIdSchema = z.string().regex(PROVIDER_ID_PATTERN, {
  error: 'provider ids use letters, digits, ".", "_" and "-" and start with a letter or digit (e.g. "openai", "local-llm")',
});

/** A tag name for reasoning inside answer text: `think` stands for `<think>…</think>`. */
const REASONING_TAG_NAME = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

const reasoningTagError =
  'expected a tag name like "think" (for <think>…</think>), an object like {"open": "<think>", "close": "</think>"}, or false to turn tag reading off';

/**
 * How an OpenAI-compatible model marks reasoning inside its answer text (openai-chat only;
 * see ReasoningTagSetting in src/providers/openai-chat for the defaults).
 */
export const ReasoningTagSchema = z
  .union(
    [
      z.literal(false),
      z.string().regex(REASONING_TAG_NAME, { error: reasoningTagError }),
      z.strictObject({
        open: z.string().min(1),
        close: z.string().min(1),
        startsInside: z.boolean().optional(),
      }),
    ],
    { error: reasoningTagError },
  )
  .refine((tag) => typeof tag !== 'object' || (tag.open !== tag.close && tag.open.trim() === tag.open && tag.close.trim() === tag.close), {
    error: 'the open and close tags must differ and have no surrounding whitespace, e.g. {"open": "<think>", "close": "</think>"}',
  })
  .meta({
    description:
      'Tags wrapping reasoning inside the answer text of an OpenAI-compatible server: "think" for <think>…</think>, {"open", "close", "startsInside"?} spelled out, or false for none. On by default for DeepSeek-R1, QwQ and Qwen3.',
  });

const pricePerMillion = z.number().min(0).meta({ description: 'USD per million tokens' });

/**
 * Corrections to the built-in model catalog, or the facts about a model it lacks. The field
 * texts are `.meta` descriptions so config.schema.json carries them to editors.
 */
export const ModelOverrideSchema = z
  .strictObject({
    contextWindow: z.int().positive().optional().meta({ description: 'Total tokens the model accepts (prompt plus output).' }),
    maxOutputTokens: z.int().positive().optional().meta({ description: 'Most tokens the model may generate in one response.' }),
    inputPrice: pricePerMillion.optional().meta({ description: 'Price of normal input tokens, USD per million.' }),
    outputPrice: pricePerMillion.optional().meta({ description: 'Price of output tokens (reasoning included), USD per million.' }),
    cacheReadPrice: pricePerMillion.optional().meta({ description: 'Price of input tokens read from the prompt cache, USD per million.' }),
    cacheWritePrice: pricePerMillion.optional().meta({ description: 'Price of input tokens written to the prompt cache, USD per million.' }),
    tools: z.boolean().optional().meta({ description: 'Whether the model accepts tool definitions.' }),
    images: z.boolean().optional().meta({ description: 'Whether the model accepts image input.' }),
    thinking: z.boolean().optional().meta({ description: 'Whether the model supports extended thinking / reasoning effort.' }),
    reasoningTag: ReasoningTagSchema.optional(),
  })
  .meta({ description: 'What agentd assumes about one model of this provider: corrects the built-in catalog, or describes a model it lacks.' });
export type ModelOverride = z.infer<typeof ModelOverrideSchema>;

/** Wire protocols agentd speaks; one folder each under src/providers/. */
export const ProviderTypeSchema = z.enum(['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'cohere', 'vertex', 'bedrock', 'copilot']);
export type ProviderType = z.infer<typeof ProviderTypeSchema>;

const milliseconds = z.int().positive();

export const ProviderConfigSchema = z.strictObject({
  /** Wire protocol; built-in provider ids know theirs, custom ids need it (usually `openai-chat`). */
  type: ProviderTypeSchema.optional(),
  /** API root, e.g. `http://127.0.0.1:11434/v1`; overrides the preset and `*_BASE_URL` variables. */
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL like "http://127.0.0.1:8080/v1"' })
    .optional(),
  /** The API key itself; the environment wins over it (see resolveApiKey). Prefer apiKeyEnv. */
  apiKey: z.string().min(1).optional(),
  /** Name of the environment variable holding the key, instead of the conventional one. */
  apiKeyEnv: z.string().min(1).optional(),
  /** Extra HTTP headers sent with every request. */
  headers: z.record(z.string(), z.string()).optional(),
  models: z
    .record(z.string(), ModelOverrideSchema)
    .optional()
    .meta({ description: 'Per-model facts, keyed by the model id (the part after `provider/`).' }),
  /** Network timeouts in milliseconds. */
  timeouts: z
    .strictObject({
      /** Time to open the connection. */
      connectMs: milliseconds.optional(),
      /** Time from sending the request to the first response byte. */
      firstByteMs: milliseconds.optional(),
      /** Longest silence allowed inside a streaming response. */
      idleMs: milliseconds.optional(),
    })
    .optional(),
  /**
   * Most content one response may bring, in bytes (text, reasoning, tool-call arguments;
   * default 8 MiB); one stream event may be twice that. A response past it is cut off
   * with an error, keeping what arrived, so an endless stream cannot fill memory.
   */
  maxResponseBytes: z.int().min(1024).optional(),
  /** Retries after a retryable failure (429, 5xx, network); 0 disables them. */
  maxRetries: z.int().min(0).optional(),
  /** Upper bound on one backoff delay, including a server's `retry-after`. */
  maxRetryDelayMs: z.int().min(0).optional(),
  /**
   * How an OpenAI-compatible server differs from OpenAI's Chat Completions, merged over the
   * preset's (see OpenAIChatQuirks in src/providers/openai-chat for each field).
   */
  quirks: z
    .strictObject({
      /** Field carrying the output cap. */
      maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
      /** Ask for the usage chunk at the end of the stream. */
      streamUsage: z.boolean().optional(),
      /** Regular expression for the model ids that reason and take `reasoning_effort`. */
      reasoningModels: z
        .string()
        .min(1)
        .refine(
          (source) => {
            try {
              new RegExp(source, 'i');
              return true;
            } catch {
              return false;
            }
          },
          { error: 'expected a valid regular expression, e.g. "^(o\\d|gpt-5)"' },
        )
        .optional(),
      /** Role of the system prompt for reasoning models. */
      reasoningSystemRole: z.enum(['system', 'developer']).optional(),
      /** Thinking level → `reasoning_effort` value (null leaves it out). */
      reasoningEffort: z.partialRecord(z.enum(['off', 'minimal', 'low', 'medium', 'high']), z.string().nullable()).optional(),
      /** Send earlier reasoning back as `reasoning_content` (DeepSeek). */
      replayReasoningContent: z.boolean().optional(),
      /** Tags wrapping reasoning inside `content`, for every model of the provider. */
      reasoningTag: ReasoningTagSchema.optional(),
    })
    .optional(),
  /** AWS region of a `bedrock` provider (e.g. `us-east-1`); AWS_REGION, AWS_DEFAULT_REGION or the profile's region otherwise. */
  region: z
    .string()
    .regex(/^[a-z]{2}(-gov)?-[a-z]+-\d+$/, { error: 'expected an AWS region like "us-east-1" or "eu-central-1"' })
    .optional(),
  /** Named profile in ~/.aws/credentials and ~/.aws/config for a `bedrock` provider; AWS_PROFILE or `default` otherwise. */
  profile: z.string().min(1).optional(),
  /** Azure OpenAI specifics (https://learn.microsoft.com/azure/ai-services/openai/reference). */
  azure: z
    .strictObject({
      /** The `api-version` query parameter. */
      apiVersion: z.string().min(1).optional(),
      /** Deployment name used in the URL instead of the model id. */
      deployment: z.string().min(1).optional(),
    })
    .optional(),
  /** Vertex AI: the Google Cloud project; else GOOGLE_CLOUD_PROJECT, else the credentials file's project. */
  project: z.string().min(1).optional(),
  /** Vertex AI: the location (`us-east5`, `europe-west1`, `global`); else GOOGLE_CLOUD_LOCATION, else `global`. */
  location: z.string().min(1).optional(),
  /** Vertex AI: a service-account key or gcloud user credentials file, instead of Application Default Credentials' search. */
  credentialsFile: z.string().min(1).optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
