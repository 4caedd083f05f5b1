import type { ProviderConfig } from './provider-config-schema.js';

/**
 * The environment variables each built-in provider id reads, in order, following each
 * vendor's SDK convention (e.g. Google's genai SDK reads GEMINI_API_KEY, then GOOGLE_API_KEY).
 */
const CONVENTIONAL_KEY_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  azure: ['AZURE_OPENAI_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  groq: ['GROQ_API_KEY'],
  together: ['TOGETHER_API_KEY'],
  fireworks: ['FIREWORKS_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  xai: ['XAI_API_KEY'],
  cerebras: ['CEREBRAS_API_KEY'],
  moonshot: ['MOONSHOT_API_KEY'],
  zhipu: ['ZHIPU_API_KEY'],
  qwen: ['DASHSCOPE_API_KEY'],
  minimax: ['MINIMAX_API_KEY'],
  siliconflow: ['SILICONFLOW_API_KEY'],
  // The official Cohere SDKs read CO_API_KEY (cohere-python also COHERE_API_KEY).
  cohere: ['COHERE_API_KEY', 'CO_API_KEY'],
};

/**
 * The variables consulted for `providerId`: `apiKeyEnv` when configured, else the
 * conventional ones, else `<ID>_API_KEY` (`local-llm` → `LOCAL_LLM_API_KEY`).
 * Exported so `agentd doctor` and error messages can say which variable to set.
 */
export function apiKeyVariables(providerId: string, provider: ProviderConfig | undefined): readonly string[] {
  if (provider?.apiKeyEnv !== undefined) return [provider.apiKeyEnv];
  return (
    CONVENTIONAL_KEY_VARIABLES[providerId.toLowerCase()] ?? [
      `${providerId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`,
    ]
  );
}

/** Where a provider's API key was found: an environment variable (named) or `apiKey` in the config. */
export type ApiKeySource = { kind: 'env'; variable: string } | { kind: 'config' };

/**
 * The API key for a provider: the environment first (README, "Configuration"), then `apiKey` from the
 * config. Empty or blank variables count as unset, and surrounding whitespace (a
 * trailing newline from `$(cat keyfile)`) is dropped. Undefined when there is none,
 * which is fine for local servers that need no key.
 */
export function resolveApiKey(
  providerId: string,
  provider: ProviderConfig | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  return resolveApiKeyWithSource(providerId, provider, env)?.key;
}

/** resolveApiKey, and where the key came from, so a 401 can say which variable or setting to check. */
export function resolveApiKeyWithSource(
  providerId: string,
  provider: ProviderConfig | undefined,
  env: NodeJS.ProcessEnv,
): { key: string; source: ApiKeySource } | undefined {
  for (const name of apiKeyVariables(providerId, provider)) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return { key: value, source: { kind: 'env', variable: name } };
  }
  const configured = provider?.apiKey?.trim();
  return configured === undefined || configured === '' ? undefined : { key: configured, source: { kind: 'config' } };
}

/**
 * Every variable a provider reads its key from: the conventional ones of all built-in
 * providers, plus those of each configured provider (its `apiKeyEnv`, or `<ID>_API_KEY`).
 * The sandbox never passes any of them to a command.
 */
export function allApiKeyVariables(providers: Readonly<Record<string, ProviderConfig>> | undefined): Set<string> {
  const names = new Set(Object.values(CONVENTIONAL_KEY_VARIABLES).flat());
  for (const [id, provider] of Object.entries(providers ?? {})) {
    for (const name of apiKeyVariables(id, provider)) names.add(name);
    // The conventional names stay secret even when apiKeyEnv points elsewhere.
    for (const name of apiKeyVariables(id, undefined)) names.add(name);
  }
  return names;
}
