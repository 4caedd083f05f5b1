import { existsSync } from 'node:fs';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { COPILOT_NOT_LOGGED_IN, copilotLoginPath } from '../../config/copilot-login.js';
import { ProviderTypeSchema, type ProviderConfig } from '../../config/provider-config-schema.js';
import { apiKeyVariables, resolveApiKeyWithSource, type ApiKeySource } from '../../config/resolve-api-key.js';
import { CircuitBreaker, type BreakerState } from '../http/circuit-breaker.js';
import { withResilience } from '../http/with-resilience.js';
import type { LanguageModel } from '../language-model.js';
import { GoogleAccessTokenSource } from '../vertex/google-auth/google-access-token-source.js';
import { resolveVertexLocation, resolveVertexSettings } from '../vertex/resolve-vertex-settings.js';
import { bedrockSpec } from './bedrock-spec.js';
import { createLanguageModel, type LanguageModelSpec } from './create-language-model.js';
import { findPreset, providerPresets, type ProviderPreset } from './presets.js';
import { listProviderModels, type ProviderModelList } from './list-provider-models.js';
import { withSetupHints, type ProviderSetup } from './with-setup-hints.js';

export interface ProviderRegistryOptions {
  /** The loaded config; only `providers` is read. */
  config: { providers?: Record<string, ProviderConfig> };
  /** Where API keys and `*_BASE_URL` variables come from (normally process.env). */
  env: NodeJS.ProcessEnv;
  /** Shared breaker; one per registry when absent, so every model of a provider shares its circuit. */
  breaker?: CircuitBreaker;
}

export interface ProviderRegistry {
  /**
   * The model for `provider/model`, wrapped with retries and the circuit breaker
   * (`maxRetries`, `maxRetryDelayMs` from the provider's config). Throws a clear error for
   * an unknown provider, a missing base URL or a missing API key. A fallback model is
   * resolved on its own: the loop turns to it (see justifiesFallback).
   */
  resolve(ref: string): LanguageModel;
  /** Every provider id that can be named: the presets and the configured ones, sorted. */
  providerIds(): string[];
  /** Whether `resolve` would succeed for this provider (known, reachable, key present when needed). */
  isConfigured(id: string): boolean;
  /**
   * The models the provider's list endpoint offers, asked without spending tokens (for
   * `agentd doctor` and `agentd models --configured`); a provider that is not configured
   * fails with the reason `resolve` would give.
   */
  listModels(id: string, timeoutMs: number): Promise<ProviderModelList>;
  /**
   * The location a provider's requests go to, when its vendor prices by it: a Vertex
   * provider's resolved location (`global` or a region). Undefined for other providers.
   */
  location(id: string): string | undefined;
  /** The provider's circuit as its models share it (read only; see CircuitBreaker.snapshot). */
  breakerState(id: string): { state: BreakerState; consecutiveFailures: number; openedAt: number | undefined };
}

/** Azure's generally available data-plane version for chat completions (https://learn.microsoft.com/azure/ai-services/openai/api-version-deprecation). */
const defaultAzureApiVersion = '2024-10-21';
/** The Responses API on Azure is served on the versionless `v1` path (same page, "v1 API"). */
const defaultAzureResponsesApiVersion = 'v1';

/** The host of OpenAI's own API: other hosts behind OPENAI_BASE_URL are OpenAI-compatible servers. */
const openAIHost = 'api.openai.com';

/**
 * Build the registry that turns `provider/model` into a LanguageModel. A config entry
 * with a preset's id inherits the preset and overrides it; an unknown id with `type`
 * and `baseUrl` is a new provider needing only config. Base URL: config `baseUrl`, then
 * the SDK-conventional variable (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GEMINI_BASE_URL,
 * AZURE_OPENAI_ENDPOINT; OPENAI_BASE_URL also serves an openai-chat provider configured
 * without one), then the preset. API key: environment first, then config (resolveApiKey).
 */
export function createProviderRegistry(options: ProviderRegistryOptions): ProviderRegistry {
  const configs = options.config.providers ?? {};
  const breaker = options.breaker ?? new CircuitBreaker();
  // One token source per Vertex provider, so its models share the cached token.
  const googleTokens = new Map<string, GoogleAccessTokenSource>();

  function spec(id: string, modelId: string): LanguageModelSpec & { setup: ProviderSetup } {
    const preset = findPreset(id);
    const config = configs[id];
    if (preset === undefined && config === undefined) throw new Error(unknownProviderMessage(id, knownIds()));
    if (config?.type === 'vertex') return vertexSpec(id, modelId, config);
    const resolved = resolveBaseUrl(id, preset, config, options.env);
    const protocol = config?.type ?? preset?.protocol;
    // Any id of type copilot reaches Copilot where its token says, like the copilot preset.
    const { url: baseUrl, from: baseUrlFrom } = resolved.url === undefined && protocol === 'copilot' ? { url: findPreset('copilot')!.baseUrl, from: 'the copilot preset' } : resolved;
    if (protocol === undefined) {
      throw new Error(
        `provider "${id}" has no "type": set providers.${id}.type in config.json to the protocol its server speaks, usually "openai-chat" (one of ${ProviderTypeSchema.options.join(', ')})`,
      );
    }
    if (protocol === 'bedrock') return bedrockSpec(id, modelId, config, options.env);
    if (baseUrl === undefined) {
      throw new Error(
        `provider "${id}" has no base URL: set providers.${id}.baseUrl in config.json${preset?.baseUrlEnv !== undefined ? ` or the ${preset.baseUrlEnv} environment variable` : ''} (e.g. "http://127.0.0.1:8080/v1")`,
      );
    }
    // Copilot needs no key but a login; without one, the provider is not configured.
    const copilotLoginFile = protocol === 'copilot' ? copilotLoginPath(resolveAgentdPaths(options.env)) : undefined;
    if (copilotLoginFile !== undefined && !existsSync(copilotLoginFile)) throw new Error(COPILOT_NOT_LOGGED_IN);
    const found = resolveApiKeyWithSource(id, config, options.env) ?? presetKey(preset, config, options.env);
    const apiKey = found?.key;
    // A preset's key is required only at the preset's own endpoint: the same id pointed at a
    // local or self-hosted server (OPENAI_BASE_URL=http://127.0.0.1:11434/v1) may need none.
    if (apiKey === undefined && preset?.apiKeyEnv !== undefined && baseUrl === preset.baseUrl) {
      const variables = [...new Set([...apiKeyVariables(id, config), preset.apiKeyEnv])];
      throw new Error(
        `provider "${id}" needs an API key: set the ${variables.join(' or ')} environment variable, or providers.${id}.apiKey (or providers.${id}.apiKeyEnv) in config.json`,
      );
    }
    const azure = preset?.azure === true || config?.azure !== undefined;
    // openai defaults to Responses, but a compatible server behind OPENAI_BASE_URL speaks Chat Completions.
    const chosen = id === 'openai' && config?.type === undefined && new URL(baseUrl).hostname !== openAIHost ? 'openai-chat' : protocol;
    const keyVariables = [...new Set([...apiKeyVariables(id, config), ...(preset?.apiKeyEnv !== undefined && config?.apiKeyEnv === undefined ? [preset.apiKeyEnv] : [])])];
    return {
      setup: { provider: id, modelId, baseUrl, baseUrlFrom, keySource: found?.source, keyVariables },
      protocol: chosen,
      provider: id,
      modelId,
      baseUrl,
      apiKey,
      headers: config?.headers,
      timeouts: config?.timeouts,
      maxResponseBytes: config?.maxResponseBytes,
      quirks: quirksFor(preset, config, modelId),
      azure: azure
        ? {
            apiVersion:
              config?.azure?.apiVersion ??
              nonEmpty(options.env['OPENAI_API_VERSION']) ??
              (chosen === 'openai-responses' ? defaultAzureResponsesApiVersion : defaultAzureApiVersion),
            deployment: config?.azure?.deployment ?? modelId,
          }
        : undefined,
      ...(copilotLoginFile !== undefined ? { copilotLoginFile } : {}),
    };
  }

  function vertexSpec(id: string, modelId: string, config: ProviderConfig): LanguageModelSpec & { setup: ProviderSetup } {
    const { project, location, baseUrl, baseUrlFrom, credentials } = resolveVertexSettings(id, config, options.env);
    let tokens = googleTokens.get(id);
    if (tokens?.credentials.origin !== credentials.origin) googleTokens.set(id, (tokens = new GoogleAccessTokenSource({ credentials, env: options.env })));
    return {
      setup: { provider: id, modelId, baseUrl, baseUrlFrom, keySource: undefined, keyVariables: [], ownCredentials: true },
      protocol: 'vertex',
      provider: id,
      modelId,
      baseUrl,
      headers: config.headers,
      timeouts: config.timeouts,
      maxResponseBytes: config.maxResponseBytes,
      vertex: { project, location, tokens },
    };
  }

  function knownIds(): string[] {
    return [...new Set([...providerPresets.map((preset) => preset.id), ...Object.keys(configs)])].sort();
  }

  return {
    resolve(ref) {
      const { provider, model } = splitRef(ref);
      const config = configs[provider];
      const resolved = spec(provider, model);
      const resilient = withResilience(createLanguageModel(resolved), {
        breaker,
        maxRetries: config?.maxRetries,
        maxRetryDelayMs: config?.maxRetryDelayMs,
      });
      // Outside the retries: the hint goes on the failure the user sees, once. Bedrock's and
      // Copilot's errors say what to do themselves (the model, region and credential source;
      // log in again): they have no key or base URL to check.
      return resolved.protocol === 'bedrock' || resolved.protocol === 'copilot' ? resilient : withSetupHints(resilient, resolved.setup);
    },
    providerIds: knownIds,
    isConfigured(id) {
      try {
        spec(id, 'probe');
        return true;
      } catch {
        return false;
      }
    },
    async listModels(id, timeoutMs) {
      const resolved = spec(id, 'models');
      return listProviderModels(resolved, resolved.setup, timeoutMs);
    },
    breakerState: (id) => breaker.snapshot(id),
    location(id) {
      const config = configs[id];
      return config?.type === 'vertex' ? resolveVertexLocation(id, config, options.env) : undefined;
    },
  };
}

/** The base URL and where it came from (named in hints): config, the SDK-conventional variable, or the preset. */
function resolveBaseUrl(
  id: string,
  preset: ProviderPreset | undefined,
  config: ProviderConfig | undefined,
  env: NodeJS.ProcessEnv,
): { url: string | undefined; from: string } {
  if (config?.baseUrl !== undefined) return { url: config.baseUrl, from: `providers.${id}.baseUrl in config.json` };
  const variable = preset?.baseUrlEnv ?? (preset === undefined && config?.type === 'openai-chat' ? 'OPENAI_BASE_URL' : undefined);
  const fromEnv = variable === undefined ? undefined : nonEmpty(env[variable]);
  if (fromEnv !== undefined) {
    if (!/^https?:\/\//i.test(fromEnv)) {
      throw new Error(`provider "${id}": ${variable}="${fromEnv}" is not an http(s) URL; set it like "http://127.0.0.1:8080/v1" or unset it`);
    }
    return { url: fromEnv, from: `the ${variable} environment variable` };
  }
  const url = preset?.baseUrl === '' ? undefined : preset?.baseUrl;
  return { url, from: `the ${id} preset; providers.${id}.baseUrl in config.json overrides it` };
}

/** The preset's key variable, when config names none and resolveApiKey's table did not cover it. */
function presetKey(preset: ProviderPreset | undefined, config: ProviderConfig | undefined, env: NodeJS.ProcessEnv): { key: string; source: ApiKeySource } | undefined {
  if (preset?.apiKeyEnv === undefined || config?.apiKeyEnv !== undefined) return undefined;
  const key = nonEmpty(env[preset.apiKeyEnv]);
  return key === undefined ? undefined : { key, source: { kind: 'env', variable: preset.apiKeyEnv } };
}

function splitRef(ref: string): { provider: string; model: string } {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) {
    throw new Error(`model "${ref}" must be "provider/model", e.g. "anthropic/claude-sonnet-4-5", "deepseek/deepseek-chat" or "ollama/qwen3:8b"`);
  }
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

function unknownProviderMessage(id: string, known: string[]): string {
  return [
    `unknown provider "${id}". Known providers: ${known.join(', ')}.`,
    `To add an OpenAI-compatible server as "${id}", add to config.json:`,
    `  { "providers": { "${id}": { "type": "openai-chat", "baseUrl": "http://127.0.0.1:8080/v1" } } }`,
  ].join('\n');
}

/** The preset's quirks, config's over them, and the model's own `reasoningTag` over both. */
function quirksFor(preset: ProviderPreset | undefined, config: ProviderConfig | undefined, modelId: string): LanguageModelSpec['quirks'] {
  const reasoningTag = config?.models?.[modelId]?.reasoningTag;
  if (preset?.quirks === undefined && config?.quirks === undefined && reasoningTag === undefined) return undefined;
  return { ...preset?.quirks, ...config?.quirks, ...(reasoningTag !== undefined ? { reasoningTag } : {}) };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
