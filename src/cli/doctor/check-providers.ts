import type { AgentdPaths } from '../../config/agentd-paths.js';
import type { AgentdConfig, ProviderConfig } from '../../config/config-schema.js';
import { describeProviderSetup } from '../../config/describe-provider-setup.js';
import { apiKeyVariables } from '../../config/resolve-api-key.js';
import { createProviderRegistry } from '../../providers/registry/create-provider-registry.js';
import { findPreset, providerPresets, type ProviderPreset } from '../../providers/registry/presets.js';
import { describeVertexSetup } from '../../providers/vertex/describe-vertex-setup.js';
import { describeBedrockProvider } from './describe-bedrock-provider.js';
import { failCheck, okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

export interface CheckProvidersOptions {
  config: AgentdConfig;
  /** Where API keys and `*_BASE_URL` variables come from. */
  env: NodeJS.ProcessEnv;
  /** For the setup hint when no provider is configured. */
  paths: AgentdPaths;
}

/**
 * One check per provider the user has set up: every `providers.<id>` in the config,
 * every provider a model reference names (`model`, `fallbackModel`, agents, schedules),
 * and every built-in provider whose key or base URL variable is set. Each shows its
 * protocol, base URL and where its key comes from (never the key), and fails with the
 * registry's own explanation when `createProviderRegistry(...).isConfigured(id)` is false.
 */
export function checkProviders(options: CheckProvidersOptions): DoctorCheck[] {
  const { config, env } = options;
  const registry = createProviderRegistry({ config, env });
  const ids = providersInUse(config, env);
  if (ids.length === 0) {
    return [
      failCheck(
        'providers',
        'providers',
        'no model provider is configured, so no session can prompt a model',
        describeProviderSetup(options.paths),
      ),
    ];
  }
  return ids.map((id) => {
    const title = `provider ${id}`;
    const preset = findPreset(id);
    const provider = config.providers?.[id];
    const facts =
      provider?.type === 'vertex'
        ? describeVertexSetup(id, provider, env)
        : provider?.type === 'bedrock'
        ? describeBedrockProvider(id, provider, env)
        : `${provider?.type ?? preset?.protocol ?? 'unknown protocol'} at ${baseUrlOf(preset, provider, env) ?? '(no base URL)'}; ${keySource(id, preset, provider, env)}`;
    if (registry.isConfigured(id)) return okCheck(`provider:${id}`, title, facts);
    return failCheck(`provider:${id}`, title, `cannot be used: ${facts}`, whyNot(() => registry.resolve(`${id}/doctor`)));
  });
}

/**
 * checkProviders, then each usable provider is reached through its model list (no tokens
 * spent): the check says which wire answered and how many models it lists. A refused key
 * fails; a server that does not answer, or has no list endpoint, is a warning (a local
 * server may simply not be running now).
 */
export async function checkProvidersReach(options: CheckProvidersOptions & { timeoutMs: number }): Promise<DoctorCheck[]> {
  const registry = createProviderRegistry({ config: options.config, env: options.env });
  return Promise.all(
    checkProviders(options).map(async (check) => {
      if (check.status !== 'ok' || !check.id.startsWith('provider:')) return check;
      const id = check.id.slice('provider:'.length);
      const list = await registry.listModels(id, options.timeoutMs);
      if (list.kind === 'ok') return okCheck(check.id, check.title, `${check.detail}; reached over ${list.protocol}: ${list.url} lists ${list.models.length} model${list.models.length === 1 ? '' : 's'}`);
      if (list.kind === 'not-listed') return okCheck(check.id, check.title, `${check.detail}; ${list.reason}`);
      const detail = `${check.detail}; not reached over ${list.protocol}: ${list.message}`;
      if (list.protocol === 'vertex') return failCheck(check.id, check.title, detail, 'fix the Google credentials the message names');
      return /\b40[13]\b/.test(list.message)
        ? failCheck(check.id, check.title, detail, list.protocol === 'copilot' ? 'log in again: agentd login copilot' : 'set a valid API key where the message says it came from')
        : warnCheck(check.id, check.title, detail, `start the server, or correct the base URL (agentd models --provider ${id} --configured lists what it offers once it answers)`);
    }),
  );
}

/** Provider ids the user has set up, sorted, without duplicates. */
function providersInUse(config: AgentdConfig, env: NodeJS.ProcessEnv): string[] {
  const ids = new Set(Object.keys(config.providers ?? {}));
  const references = [
    config.model,
    config.fallbackModel,
    ...Object.values(config.agents ?? {}).map((agent) => agent.model),
    ...(config.schedules ?? []).map((schedule) => schedule.model),
  ];
  for (const reference of references) {
    if (reference !== undefined) ids.add(reference.slice(0, reference.indexOf('/')));
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
 */
function baseUrlOf(preset: ProviderPreset | undefined, provider: ProviderConfig | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const variable = preset?.baseUrlEnv ?? (preset === undefined && provider?.type === 'openai-chat' ? 'OPENAI_BASE_URL' : undefined);
  const fromEnv = variable === undefined ? undefined : env[variable]?.trim();
  const url = provider?.baseUrl ?? (isSet(fromEnv) ? `${fromEnv} (from ${variable})` : undefined) ?? (preset?.baseUrl || undefined);
  return url?.replace(/^(https?:\/\/)[^@/]*@/i, '$1');
}

/** Where the API key comes from, by name only: the environment first, then config (as resolveApiKey reads it). */
function keySource(id: string, preset: ProviderPreset | undefined, provider: ProviderConfig | undefined, env: NodeJS.ProcessEnv): string {
  const variables = [...apiKeyVariables(id, provider)];
  if (preset?.apiKeyEnv !== undefined && provider?.apiKeyEnv === undefined) variables.push(preset.apiKeyEnv);
  const found = variables.find((name) => isSet(env[name]));
  if (found !== undefined) return `API key from $${found}`;
  if (isSet(provider?.apiKey)) return `API key from config (providers.${id}.apiKey)`;
  return preset?.apiKeyEnv === undefined && provider?.apiKeyEnv === undefined ? 'no API key (none needed)' : `no API key (looked in $${[...new Set(variables)].join(', $')})`;
}

function whyNot(resolve: () => unknown): string {
  try {
    resolve();
    return 'run agentd doctor again';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
