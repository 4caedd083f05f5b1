import { resolveAgentdPaths, type AgentdPaths } from '../config/agentd-paths.js';
import type { FindSessionOwner } from './cluster/session-owner.js';
import type { AgentdConfig } from '../config/config-schema.js';
import { loadProjectConfig, readUserConfig } from '../config/load-config.js';
import { ProjectSettingsResolver } from '../config/project-settings.js';
import { collectSecrets, redactSecrets } from '../config/redact-secrets.js';
import { showControlCharacters } from '../config/show-control-characters.js';
import type { PermissionAsker } from '../project/permission-asker.js';
import type { DataDirLock } from '../store/data-dir-lock.js';
import type { Store } from '../store/store.js';
import type { PermissionMode } from '../tools/permissions/permission-modes.js';

export interface StartOptions {
  /** `--config FILE`. */
  configFile?: string;
  /** `serve --socket PATH`: the Unix socket served (hidden from the sandbox). */
  socketPath?: string;
  /**
   * Where the daemon was started: only a relative `--config` path is resolved against it.
   * Project config follows each session's own cwd (DaemonSettings.projects).
   */
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
   * Start the scheduler (config and added schedules, missed runs); false for a daemon that
   * lives only as long as one `agentd run`, which must not fire anyone's schedules.
   */
  runSchedules?: boolean;
  /**
   * The data directory's lock, when the caller took it already (serve and run take it
   * before serving anything); the daemon takes it otherwise, and releases it at shutdown.
   */
  lock?: DataDirLock;
  /**
   * Opens the store on the data directory's database file; by default the store the config
   * or AGENTD_STORE_URL chooses (open-daemon-store.ts), SQLite when neither does.
   */
  openStore?: (file: string) => Store | Promise<Store>;
  /**
   * Which daemon owns a session (holds its lease): requests for a session another daemon
   * owns are forwarded to it. By default nobody owns one and every daemon runs what it receives.
   */
  findSessionOwner?: FindSessionOwner;
}

/** Paths, the validated config and the logger: what every daemon start needs first. */
export interface DaemonSettings {
  options: StartOptions;
  paths: AgentdPaths;
  /** The user's own config (user config.json or `--config`): daemon-wide settings only. */
  config: AgentdConfig;
  /** Each session directory's settings: the user's config with that project's file over it. */
  projects: ProjectSettingsResolver;
  /** Writes one line to the log with every known secret redacted and control characters shown (showControlCharacters). */
  log(line: string): void;
}

/**
 * Resolves the paths and loads the user's config. Throws ConfigError with file, JSON path
 * and fix, before anything is served, so a bad config never half-starts. The directory
 * the daemon starts in has no say: one daemon serves sessions of many projects, each with
 * its own `.agentd/config.json` (see ProjectSettingsResolver).
 */
export function loadDaemonSettings(options: StartOptions): DaemonSettings {
  const paths = resolveAgentdPaths(options.env);
  const user = readUserConfig({ cwd: options.cwd, paths, ...(options.configFile ? { configFile: options.configFile } : {}) });
  const { config } = loadProjectConfig(user, undefined);
  // Grows as projects load: a trusted project's own provider keys are redacted too.
  const secrets = new Set(collectSecrets(config, options.env));
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  // Log lines quote MCP servers' stderr, providers' errors and repository files, and the log is
  // often a terminal: multi-line messages keep their lines, every other control is shown.
  const log = (line: string): void => write(`agentd: ${showControlCharacters(redactSecrets(line, [...secrets]), { keep: '\n' })}`);
  const learnSecrets = (projectConfig: AgentdConfig): void => {
    for (const secret of collectSecrets(projectConfig, options.env)) secrets.add(secret);
  };
  return { options, paths, config, projects: new ProjectSettingsResolver({ user, log, onLoaded: learnSecrets }), log };
}
