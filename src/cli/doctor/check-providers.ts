import type { AgentdPaths } from '../../config/agentd-paths.js';
import type { AgentdConfig } from '../../config/config-schema.js';
import { describeProviderSetup } from '../../config/describe-provider-setup.js';
import { createProviderRegistry } from '../../providers/registry/create-provider-registry.js';
import { findPreset } from '../../providers/registry/presets.js';
import { displayBaseUrl, keyFacts, providersInUse } from '../../providers/registry/provider-setup-facts.js';
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
        : `${provider?.type ?? preset?.protocol ?? 'unknown protocol'} at ${baseUrlText(id, config, env) ?? '(no base URL)'}; ${keySourceText(id, config, env)}`;
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

/** The base URL as shown: with the variable it came from, when it came from one. */
function baseUrlText(id: string, config: AgentdConfig, env: NodeJS.ProcessEnv): string | undefined {
  const found = displayBaseUrl(id, config, env);
  return found === undefined ? undefined : found.variable !== undefined ? `${found.url} (from ${found.variable})` : found.url;
}

/** Where the API key comes from, by name only. */
function keySourceText(id: string, config: AgentdConfig, env: NodeJS.ProcessEnv): string {
  const key = keyFacts(id, config, env);
  switch (key.source) {
    case 'env':
      return `API key from $${key.variable}`;
    case 'config':
      return `API key from config (providers.${id}.apiKey)`;
    case 'login':
      return 'signed in (agentd login copilot)';
    case 'not_needed':
      return 'no API key (none needed)';
    case 'none':
      return key.looked.length > 0 ? `no API key (looked in $${key.looked.join(', $')})` : 'not signed in (agentd login copilot)';
  }
}

function whyNot(resolve: () => unknown): string {
  try {
    resolve();
    return 'run agentd doctor again';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
