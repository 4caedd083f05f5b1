import { statSync } from 'node:fs';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { ConfigError } from '../../config/config-error.js';
import type { AgentdConfig } from '../../config/config-schema.js';
import { loadConfig, projectConfigFile } from '../../config/load-config.js';
import { FILE_CAPS, readRepositoryFile } from '../../config/read-repository-file.js';
import { failCheck, okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/** Where to look for config, as `agentd serve` would. */
export interface CheckConfigOptions {
  paths: AgentdPaths;
  /** The project directory whose `.agentd/config.json` applies. */
  cwd: string;
  /** `--config FILE`. */
  configFile?: string;
}

/** The config check and, when the config is valid, the config for the checks that need it. */
export interface ConfigCheckResult {
  check: DoctorCheck;
  config?: AgentdConfig;
}

/**
 * Loads the config exactly as the daemon does (`loadConfig`): an invalid file fails with
 * every problem (file, JSON path, fix). A valid file that holds an API key but can be read
 * by other users is a warning, since keys are never to be exposed (SECURITY.md).
 */
export function checkConfig(options: CheckConfigOptions): ConfigCheckResult {
  const title = 'config';
  let loaded;
  try {
    loaded = loadConfig({
      paths: options.paths,
      cwd: options.cwd,
      ...(options.configFile !== undefined ? { configFile: options.configFile } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      return {
        check: failCheck('config', title, error.message, 'correct each value named above (file, JSON path, expected value), then run agentd doctor again'),
      };
    }
    const reason = error instanceof Error ? error.message : String(error);
    return { check: failCheck('config', title, `cannot load the config: ${reason}`, `check that ${options.paths.configFile} is a readable file`) };
  }
  const { config, files } = loaded;
  if (files.length === 0) {
    return {
      check: okCheck('config', title, `no config file; using defaults (user file: ${options.paths.configFile}, project file: ${projectConfigFile(options.cwd)})`),
      config,
    };
  }
  const exposed = files.filter((file) => holdsApiKey(file) && isReadableByOthers(file));
  if (exposed.length > 0) {
    return {
      check: warnCheck(
        'config',
        title,
        `valid (${files.join(', ')}), but ${exposed.join(', ')} holds an API key and other users can read it`,
        `chmod 600 ${exposed.join(' ')}, or move the key to an environment variable (providers.<id>.apiKeyEnv)`,
      ),
      config,
    };
  }
  return { check: okCheck('config', title, `valid: ${files.join(', ')}`), config };
}

/** loadConfig has validated the file, so it is JSON with an optional `providers` object. */
function holdsApiKey(file: string): boolean {
  // The same bounded, non-blocking read as loadConfig's: a file swapped for a FIFO since cannot make doctor wait.
  const read = readRepositoryFile(file, { root: undefined, cap: FILE_CAPS.config, overCap: 'refuse' });
  if (read.kind !== 'ok') return false;
  try {
    const json = JSON.parse(read.text) as { providers?: Record<string, { apiKey?: unknown }> };
    return Object.values(json.providers ?? {}).some((provider) => provider.apiKey !== undefined);
  } catch {
    // Changed or removed since loadConfig read it: nothing to warn about in what is there now.
    return false;
  }
}

function isReadableByOthers(file: string): boolean {
  return (statSync(file).mode & 0o044) !== 0;
}
