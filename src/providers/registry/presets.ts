import type { ProviderType } from '../../config/provider-config-schema.js';
import type { OpenAIChatQuirks } from '../openai-chat/openai-chat-quirks.js';

/** What agentd knows about a provider id without any config. */
export interface ProviderPreset {
  /** The provider id, the part before the slash in `provider/model`. */
  id: string;
  /** Wire protocol spoken at `baseUrl`. */
  protocol: ProviderType;
  /** API root as the protocol's model class expects it; '' when it must be configured (Azure). */
  baseUrl: string;
  /** Environment variable holding the API key; undefined when no key is needed (local servers). */
  apiKeyEnv?: string;
  /** The vendor SDK's conventional variable for another base URL (e.g. OPENAI_BASE_URL). */
  baseUrlEnv?: string;
  /** Chat Completions differences of this server (openai-chat only). */
  quirks?: OpenAIChatQuirks;
  /** Azure OpenAI: deployment URLs and the `api-key` header. */
  azure?: boolean;
}

/** OpenAI's reasoning models take `developer` messages, `max_completion_tokens` and `reasoning_effort` (https://platform.openai.com/docs/guides/reasoning). */
const openAIQuirks: OpenAIChatQuirks = {
  maxTokensField: 'max_completion_tokens',
  reasoningModels: '^(o\\d|gpt-5|codex)',
  reasoningSystemRole: 'developer',
};

/**
 * Built-in providers. Base URLs are the ones each vendor documents for OpenAI-compatible
 * (or native) clients, cited beside each entry; a config entry with the same id inherits
 * and overrides its preset.
 */
export const providerPresets: readonly ProviderPreset[] = [
  // https://docs.anthropic.com/en/api/getting-started — the SDKs append /v1/messages to this origin.
  { id: 'anthropic', protocol: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY', baseUrlEnv: 'ANTHROPIC_BASE_URL' },
  // https://platform.openai.com/docs/api-reference — Responses is OpenAI's recommended API for new
  // work (https://platform.openai.com/docs/guides/migrate-to-responses) and keeps reasoning across
  // turns; the registry switches to openai-chat when OPENAI_BASE_URL points at another server.
  { id: 'openai', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', quirks: openAIQuirks },
  // https://ai.google.dev/api — the model class appends /v1beta/models/{model}:streamGenerateContent.
  { id: 'google', protocol: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKeyEnv: 'GEMINI_API_KEY', baseUrlEnv: 'GEMINI_BASE_URL' },
  // https://docs.cohere.com/reference/chat-stream — the model class appends /v2/chat. The official
  // SDKs read CO_API_KEY and CO_API_URL (cohere-python client.py, which also accepts COHERE_API_KEY).
  { id: 'cohere', protocol: 'cohere', baseUrl: 'https://api.cohere.com', apiKeyEnv: 'COHERE_API_KEY', baseUrlEnv: 'CO_API_URL' },
  // https://learn.microsoft.com/azure/ai-services/openai/reference — the endpoint is per resource
  // (https://NAME.openai.azure.com), from config or AZURE_OPENAI_ENDPOINT as the OpenAI SDK reads it.
  { id: 'azure', protocol: 'openai-chat', baseUrl: '', apiKeyEnv: 'AZURE_OPENAI_API_KEY', baseUrlEnv: 'AZURE_OPENAI_ENDPOINT', quirks: openAIQuirks, azure: true },
  // GitHub Copilot: chat at the endpoint its token names, this one when it names none; no API
  // key, a login (`agentd login copilot`; src/providers/copilot/copilot-endpoints.ts cites the sources).
  { id: 'copilot', protocol: 'copilot', baseUrl: 'https://api.githubcopilot.com' },
  // https://api-docs.deepseek.com/ — thinking-mode tool calls need reasoning_content sent back
  // (https://api-docs.deepseek.com/guides/thinking_mode).
  { id: 'deepseek', protocol: 'openai-chat', baseUrl: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY', quirks: { replayReasoningContent: true } },
  // https://docs.mistral.ai/api/ — rejects unknown fields such as stream_options (422
  // "extra_forbidden", openai/openai-agents-python#442) and reports usage on the last chunk anyway.
  { id: 'mistral', protocol: 'openai-chat', baseUrl: 'https://api.mistral.ai/v1', apiKeyEnv: 'MISTRAL_API_KEY', quirks: { streamUsage: false } },
  // https://console.groq.com/docs/openai; reasoning_effort for gpt-oss: https://console.groq.com/docs/reasoning
  { id: 'groq', protocol: 'openai-chat', baseUrl: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY', quirks: { reasoningModels: 'gpt-oss', reasoningEffort: { minimal: 'low' } } },
  // https://docs.together.ai/docs/openai-api-compatibility
  { id: 'together', protocol: 'openai-chat', baseUrl: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY' },
  // https://docs.fireworks.ai/tools-sdks/openai-compatibility
  { id: 'fireworks', protocol: 'openai-chat', baseUrl: 'https://api.fireworks.ai/inference/v1', apiKeyEnv: 'FIREWORKS_API_KEY' },
  // https://openrouter.ai/docs/quickstart
  { id: 'openrouter', protocol: 'openai-chat', baseUrl: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY' },
  // https://docs.x.ai/docs/api-reference; only grok-3-mini takes reasoning_effort, "low" or "high"
  // (https://docs.x.ai/docs/guides/reasoning), and other Grok models reject it.
  {
    id: 'xai',
    protocol: 'openai-chat',
    baseUrl: 'https://api.x.ai/v1',
    apiKeyEnv: 'XAI_API_KEY',
    quirks: { reasoningModels: '^grok-3-mini', reasoningEffort: { minimal: 'low', low: 'low', medium: 'high', high: 'high' } },
  },
  // https://inference-docs.cerebras.ai/resources/openai
  { id: 'cerebras', protocol: 'openai-chat', baseUrl: 'https://api.cerebras.ai/v1', apiKeyEnv: 'CEREBRAS_API_KEY' },
  // https://platform.moonshot.ai/docs/guide/start-using-kimi-api (mainland China: https://api.moonshot.cn/v1)
  { id: 'moonshot', protocol: 'openai-chat', baseUrl: 'https://api.moonshot.ai/v1', apiKeyEnv: 'MOONSHOT_API_KEY' },
  // https://docs.bigmodel.cn/cn/guide/develop/openai/introduction (Z.ai outside China: https://api.z.ai/api/paas/v4)
  { id: 'zhipu', protocol: 'openai-chat', baseUrl: 'https://open.bigmodel.cn/api/paas/v4', apiKeyEnv: 'ZHIPU_API_KEY' },
  // DashScope compatible mode, international endpoint:
  // https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope
  // (mainland China: https://dashscope.aliyuncs.com/compatible-mode/v1)
  { id: 'qwen', protocol: 'openai-chat', baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', apiKeyEnv: 'DASHSCOPE_API_KEY' },
  // https://platform.minimax.io/docs/api-reference/text-openai-api (mainland China: https://api.minimaxi.com/v1)
  { id: 'minimax', protocol: 'openai-chat', baseUrl: 'https://api.minimax.io/v1', apiKeyEnv: 'MINIMAX_API_KEY' },
  // https://docs.siliconflow.com/en/userguide/quickstart (mainland China: https://api.siliconflow.cn/v1)
  { id: 'siliconflow', protocol: 'openai-chat', baseUrl: 'https://api.siliconflow.com/v1', apiKeyEnv: 'SILICONFLOW_API_KEY' },
  // https://docs.ollama.com/openai — default port 11434, no key.
  { id: 'ollama', protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1' },
  // https://lmstudio.ai/docs/app/api/endpoints/openai — default port 1234, no key.
  { id: 'lmstudio', protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:1234/v1' },
  // https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html — `vllm serve` listens on 8000.
  { id: 'vllm', protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:8000/v1' },
  // https://github.com/ggml-org/llama.cpp/tree/master/tools/server — `llama-server` listens on 8080.
  { id: 'llamacpp', protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:8080/v1' },
];

/** The preset for `id`, if it is a built-in provider. */
export function findPreset(id: string): ProviderPreset | undefined {
  return providerPresets.find((preset) => preset.id === id);
}
