import type { ProviderConfig } from '../../config/config-schema.js';
import type { ProviderRegistry } from '../../providers/registry/create-provider-registry.js';
import { findPreset } from '../../providers/registry/presets.js';

/** What `agentd models --configured` learned from the servers it asked. */
export interface ReachedServers {
  /** The models each answering server offers. */
  rows: Array<{ provider: string; models: string[] }>;
  /** Presets nobody set up that did not answer: not shown as configured. */
  unreached: Set<string>;
  /** `id: why` for each unreached provider the user set up. */
  notes: string[];
}
/**
 * `--configured` asks the servers whose models the catalog cannot know (a provider without
 * catalog models, or one pointed at another base URL) what they offer, through their model
 * list. A local preset nobody set up (Ollama, LM Studio on their default ports) that does
 * not answer is not configured in any useful sense and is left out; one the user set up
 * stays, with a note saying why it did not answer.
 */
export async function reachModelServers(
  registry: ProviderRegistry,
  providers: Record<string, ProviderConfig>,
  env: NodeJS.ProcessEnv,
  listed: ReadonlySet<string>,
  only: string | undefined,
): Promise<ReachedServers> {
  const redirected = (id: string): boolean => {
    const variable = findPreset(id)?.baseUrlEnv;
    return providers[id]?.baseUrl !== undefined || (variable !== undefined && (env[variable]?.trim() ?? '') !== '');
  };
  const ids = registry.providerIds().filter((id) => (only === undefined || id === only) && registry.isConfigured(id) && (!listed.has(id) || redirected(id)));
  const answers = await Promise.all(ids.map(async (id) => ({ id, list: await registry.listModels(id, 1_500) })));
  const result: ReachedServers = { rows: [], unreached: new Set(), notes: [] };
  for (const { id, list } of answers) {
    if (list.kind === 'ok') result.rows.push({ provider: id, models: list.models });
    if (list.kind !== 'failed') continue;
    // One the user set up stays listed (its declared models are still theirs), with why it did not answer.
    if (providers[id] !== undefined || redirected(id)) result.notes.push(`${id}: ${list.message}`);
    else result.unreached.add(id);
  }
  return result;
}
