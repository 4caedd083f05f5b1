import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from '../support/daemon-client.js';
import type { VendorProtocol } from './answer-streams.js';

/** How to start one contender: the command and an environment holding nothing of this machine's user. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface Contender {
  name: string;
  /** The wire protocol it speaks to the loopback vendor; none for the bare node. */
  protocol?: VendorProtocol;
  /** Writes the contender's config under `home` (a fresh directory per run) and says how to start it. */
  launch(home: string, vendorUrl: string): Launch;
}

/** Where the peers are installed (dist/bench/node_modules links to bench/node_modules). */
export const modules = fileURLToPath(new URL('../node_modules/', import.meta.url));

/** The model ids the peers are configured with (the vendor answers any); the ones each vendor's own CLI expects. */
export const models: Record<VendorProtocol, string> = {
  'openai-chat': 'gpt-4.1-mini',
  'openai-responses': 'gpt-5.1',
  'anthropic-messages': 'claude-sonnet-4-6',
  gemini: 'gemini-2.5-flash',
};

/** The API root each protocol's base URL names (as the vendors' SDKs and agentd's presets write it). */
export const basePaths: Record<VendorProtocol, string> = {
  'openai-chat': '/v1',
  'openai-responses': '/v1',
  'anthropic-messages': '',
  gemini: '',
};

/**
 * HOME and the XDG directories inside the run's own directory, PATH and locale from here,
 * nothing else: no API key, config or cache of this machine's user reaches a contender.
 */
export function isolatedEnv(home: string): Record<string, string> {
  const dirs = { XDG_CONFIG_HOME: '.config', XDG_DATA_HOME: '.local/share', XDG_CACHE_HOME: '.cache', XDG_STATE_HOME: '.local/state' };
  const env: Record<string, string> = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', TMPDIR: join(home, 'tmp') };
  mkdirSync(env.TMPDIR!, { recursive: true });
  for (const [name, dir] of Object.entries(dirs)) {
    env[name] = join(home, dir);
    mkdirSync(env[name]!, { recursive: true });
  }
  return env;
}

/** A node that answers `initialize` and nothing more: the floor any Node agent's start-up stands on. */
export const bareNode: Contender = {
  name: 'bare-node',
  launch: (home) => ({
    command: process.execPath,
    args: [
      '-e',
      `process.stdin.once('data', (line) => { const { id } = JSON.parse(String(line).split('\\n')[0]);
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } }) + '\\n'); });`,
    ],
    env: isolatedEnv(home),
  }),
};

/** `agentd serve --stdio`: the daemon itself on the editor's pipes, without the bridge. */
export const agentdStdio: Contender = agentdStdioOf(BIN, 'agentd-serve-stdio');

/** `serve --stdio` of the `agentd` bin at `bin` (another build's, for before/after in one run). */
export function agentdStdioOf(bin: string, name: string): Contender {
  return {
    name,
    protocol: 'openai-chat',
    launch(home, vendorUrl) {
      const launch = agentd('openai-chat').launch(home, vendorUrl);
      return { ...launch, command: bin, args: ['serve', '--stdio'] };
    },
  };
}

/** `agentd acp` (the stdio bridge, which starts the daemon) with a provider of the given protocol pointed at the vendor. */
export function agentd(protocol: VendorProtocol): Contender {
  return {
    name: protocol === 'openai-chat' ? 'agentd' : `agentd-${protocol}`,
    protocol,
    launch(home, vendorUrl) {
      const agentdHome = join(home, 'agentd');
      mkdirSync(join(agentdHome, 'config'), { recursive: true });
      // The config shape of src/config/config-schema.ts and provider-config-schema.ts.
      const config = { model: `local/${models[protocol]}`, providers: { local: { type: protocol, baseUrl: `${vendorUrl}${basePaths[protocol]}`, apiKey: 'bench' } } };
      writeFileSync(join(agentdHome, 'config', 'config.json'), JSON.stringify(config));
      return { command: BIN, args: ['acp'], env: { ...isolatedEnv(home), AGENTD_HOME: agentdHome } };
    },
  };
}
