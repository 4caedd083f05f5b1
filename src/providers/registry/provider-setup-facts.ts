import { existsSync } from 'node:fs';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import type { AgentdConfig, ProviderConfig } from '../../config/config-schema.js';
import { copilotLoginPath } from '../../config/copilot-login.js';
import { apiKeyVariables } from '../../config/resolve-api-key.js';
import { findPreset, providerPresets, type ProviderPreset } from './presets.js';

/*
 * What `agentd doctor` and the daemon's health report say about a provider's setup, by
 * name only: which providers the user set up, where each one's base URL and key come from.
 * Never a key's value.
 */

/** Where a provider's credential comes from: a variable, the config, a login file, nowhere, or none is needed. */
export type KeySource = 'env' | 'config' | 'login' | 'none' | 'not_needed';

export interface KeyFacts {
  source: KeySource;
  /** The variable it came from, with `env`. */
  variable?: string;
  /** The variables looked in, for a missing key. */
  looked: string[];
}

/** Provider ids set up in `config` or by the environment, sorted, without duplicates. */
export function providersInUse(config: AgentdConfig, env: NodeJS.ProcessEnv): string[] {
  const ids = new Set(Object.keys(config.providers ?? {}));
  const references = [
    config.model,
    config.fallbackModel,
    ...Object.values(config.agents ?? {}).map((agent) => agent.model),
    ...(config.schedules ?? []).map((schedule) => schedule.model),
  ];
  for (const reference of references) {
    if (reference !== undefined && reference.includes('/')) ids.add(reference.slice(0, reference.indexOf('/')));
  }
  for (const preset of providerPresets) {
    const variables = [...apiKeyVariables(preset.id, undefined), preset.apiKeyEnv, preset.baseUrlEnv];
    if (variables.some((name) => name !== undefined && isSet(env[name]))) ids.add(preset.id);
  }
  return [...ids].sort();
}

/**
 * The base URL in the registry's order (config, the SDK-conventional variable, the
 * preset), for display only; userinfo is dropped so a URL with credentials is not shown.
 * `from` says where an environment variable's URL came from.
 */
export function displayBaseUrl(id: string, config: AgentdConfig, env: NodeJS.ProcessEnv): { url: string; variable?: string } | undefined {
  const preset = findPreset(id);
  const provider = config.providers?.[id];
  const variable = preset?.baseUrlEnv ?? (preset === undefined && provider?.type === 'openai-chat' ? 'OPENAI_BASE_URL' : undefined);
  const fromEnv = variable === undefined ? undefined : env[variable]?.trim();
  const found = provider?.baseUrl !== undefined ? { url: provider.baseUrl } : isSet(fromEnv) ? { url: fromEnv, variable: variable! } : preset?.baseUrl ? { url: preset.baseUrl } : undefined;
  return found === undefined ? undefined : { ...found, url: found.url.replace(/^(https?:\/\/)[^@/]*@/i, '$1') };
}

/** Where the provider's key comes from, as resolveApiKey reads it: the environment first, then config; Copilot's login file. */
export function keyFacts(id: string, config: AgentdConfig, env: NodeJS.ProcessEnv): KeyFacts {
  const preset: ProviderPreset | undefined = findPreset(id);
  const provider: ProviderConfig | undefined = config.providers?.[id];
  const protocol = provider?.type ?? preset?.protocol;
  if (protocol === 'copilot') return { source: existsSync(copilotLoginPath(resolveAgentdPaths(env))) ? 'login' : 'none', looked: [] };
  const variables = [...apiKeyVariables(id, provider)];
  if (preset?.apiKeyEnv !== undefined && provider?.apiKeyEnv === undefined) variables.push(preset.apiKeyEnv);
  const looked = [...new Set(variables)];
  const found = variables.find((name) => isSet(env[name]));
  if (found !== undefined) return { source: 'env', variable: found, looked };
  if (isSet(provider?.apiKey)) return { source: 'config', looked };
  return { source: preset?.apiKeyEnv === undefined && provider?.apiKeyEnv === undefined ? 'not_needed' : 'none', looked };
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
