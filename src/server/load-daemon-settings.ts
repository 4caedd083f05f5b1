import { resolveAgentdPaths, type AgentdPaths } from '../config/agentd-paths.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import { collectSecrets, redactSecrets } from '../config/redact-secrets.js';
import type { PermissionAsker } from '../session/permission-asker.js';
import type { DataDirLock } from '../store/data-dir-lock.js';
import type { PermissionMode } from '../tools/permissions/permission-mode.js';

export interface StartOptions {
  /** `--config FILE`. */
  configFile?: string;
  /** The project directory whose `.agentd/config.json` applies. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** `--model provider/model`. */
  model?: string;
  /** Where log lines go; stderr by default, never stdout. */
  write?: (line: string) => void;
  /** `--permission-mode`. */
  permissionMode?: PermissionMode;
  /** Who answers permission questions (headless runs: nobody). */
  asker?: PermissionAsker;
  /**
   * The data directory's lock, when the caller took it already (serve and run take it
   * before serving anything); the daemon takes it otherwise, and releases it at shutdown.
   */
  lock?: DataDirLock;
}

/** Paths, the validated config and the logger: what every daemon start needs first. */
export interface DaemonSettings {
  options: StartOptions;
  paths: AgentdPaths;
  config: AgentdConfig;
  /** Permission rules per config file, user then project (matched last-wins across them). */
  permissionSources: LoadedConfig['permissionSources'];
  /** Writes one line to the log with every known secret redacted. */
  log(line: string): void;
}

/**
 * Resolves the paths and loads the config (user, then project). Throws ConfigError with
 * file, JSON path and fix, before anything is served, so a bad config never half-starts.
 */
export function loadDaemonSettings(options: StartOptions): DaemonSettings {
  const paths = resolveAgentdPaths(options.env);
  const { config, warnings, permissionSources } = loadConfig({ cwd: options.cwd, paths, ...(options.configFile ? { configFile: options.configFile } : {}) });
  const secrets = collectSecrets(config, options.env);
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const log = (line: string): void => write(`agentd: ${redactSecrets(line, secrets)}`);
  for (const warning of warnings) log(warning);
  return { options, paths, config, permissionSources, log };
}
