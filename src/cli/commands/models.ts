import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { loadConfig } from '../../config/load-config.js';
import { jsonForTerminal, showControlCharacters } from '../../config/show-control-characters.js';
import { formatModelTable } from '../../providers/catalog/format-model-table.js';
import { listModelRows } from '../../providers/catalog/list-model-rows.js';
import { serverModelRows } from '../../providers/catalog/server-model-rows.js';
import { createProviderRegistry, type ProviderRegistry } from '../../providers/registry/create-provider-registry.js';
import { reachModelServers } from '../models/reach-model-servers.js';

/** Where the command reads its environment and writes its output; the process's by default. */
export interface ModelsCommandIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  write: (text: string) => void;
}

const processIo = (): ModelsCommandIo => {
  // `agentd models | head` closes the pipe early: that is the reader's choice, not a crash.
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  return {
    env: process.env,
    cwd: process.cwd(),
    write: (text) => {
      process.stdout.write(text);
    },
  };
};

/**
 * `agentd models [--config FILE] [--json] [--provider ID] [--configured]`: every catalog
 * model plus the models declared in config, with limits, prices, capabilities and
 * whether its provider is usable now. `--json` prints one object per line (ModelRow).
 */
export async function modelsCommand(argv: string[], io: ModelsCommandIo = processIo()): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string' },
      json: { type: 'boolean' },
      provider: { type: 'string' },
      configured: { type: 'boolean' },
    },
    strict: true,
  });
  const { config } = loadConfig({
    cwd: io.cwd,
    paths: resolveAgentdPaths(io.env),
    ...(values.config !== undefined ? { configFile: values.config } : {}),
  });
  const registry = createProviderRegistry({ config, env: io.env });
  const rows = listModelRows({ overrides: config.providers, isConfigured: (id) => registry.isConfigured(id), location: (id) => pricedLocation(registry, id) });

  const provider = values.provider;
  if (provider !== undefined && !registry.providerIds().includes(provider) && !rows.some((row) => row.provider === provider)) {
    throw new Error(`--provider "${provider}" is not a known provider; use one of: ${registry.providerIds().join(', ')}`);
  }
  const listed = new Set(rows.map((row) => row.provider));
  const reached = values.configured === true ? await reachModelServers(registry, config.providers ?? {}, io.env, listed, provider) : { rows: [], unreached: new Set<string>(), notes: [] };
  const shown = [...rows, ...reached.rows.flatMap((r) => serverModelRows(r.provider, r.models, rows, config.providers))]
    .filter((row) => (provider === undefined || row.provider === provider) && (values.configured !== true || (row.configured && !reached.unreached.has(row.provider))))
    .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));

  if (values.json === true) {
    io.write(shown.map((row) => jsonForTerminal(row) + '\n').join(''));
    return 0;
  }
  let text = formatModelTable(shown);
  // A usable provider with no listed models (local servers, a custom server) still takes
  // any model id, with the catalog's conservative defaults.
  const offered = new Set(shown.map((row) => row.provider));
  const unlisted = registry
    .providerIds()
    .filter((id) => !offered.has(id) && !reached.unreached.has(id) && (provider === undefined || id === provider) && registry.isConfigured(id));
  if (unlisted.length > 0) {
    text += `Configured, any model id (e.g. ${unlisted[0]}/MODEL): ${unlisted.join(', ')}\n`;
  }
  text += reached.notes.map((note) => `Not reached: ${note}\n`).join('');
  // Model ids and names can come from a project's config: the table keeps its lines, every other control is shown.
  io.write(showControlCharacters(text, { keep: '\n' }));
  return 0;
}


/** A provider's location for pricing. A malformed one makes the provider unconfigured (its row says so); its models are then listed at the global prices. */
function pricedLocation(registry: ProviderRegistry, id: string): string | undefined {
  try {
    return registry.location(id);
  } catch {
    return undefined;
  }
}
