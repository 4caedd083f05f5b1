import path from 'node:path';
import type { AgentdPaths } from './agentd-paths.js';
import { ConfigError, type ConfigProblem } from './config-error.js';
import { type AgentdConfig, AgentdConfigSchema } from './config-schema.js';
import { describeConfigIssues } from './describe-config-issues.js';
import { isTrustedProject } from './is-trusted-project.js';
import { mergeConfigs } from './merge-configs.js';
import { readConfigFile } from './read-config-file.js';
import { projectBoundaries } from './repository-root.js';
import { restrictProjectConfig } from './restrict-project-config.js';

/** Permission rules of one config file. */
export interface PermissionSource {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** The user's own config file, read once: the daemon-wide layer every project is laid over. */
export interface UserConfigLayer {
  /** The file read, or undefined when there is none. */
  file: string | undefined;
  /** Its validated JSON ({} when there is no file). */
  json: Record<string, unknown>;
}

/** The effective configuration and where it came from. */
export interface LoadedConfig {
  /** The merged, validated configuration. */
  config: AgentdConfig;
  /** The files that were read, in order (later ones override earlier ones). */
  files: string[];
  /** Settings of an untrusted project file that were ignored, one line each. */
  warnings: string[];
  /**
   * Each file's own permission rules, in file order (user, then project). Rules are
   * matched deny, then ask, then allow, across all sources at once; they are kept apart so
   * that other rule sources (remembered answers) can be added beside them.
   */
  permissionSources: PermissionSource[];
  /** Whether the project directory is one of the user's trustedProjects (itself, not a subfolder). */
  trusted: boolean;
  /** The project file's own settings after restriction (what it may set), {} without one. */
  project: Record<string, unknown>;
}

export interface LoadConfigOptions {
  /** The directory whose `.agentd/config.json` applies; defaults to process.cwd(). */
  cwd?: string;
  /** `--config FILE`: read this instead of the user config file; it must exist. */
  configFile?: string;
  paths: AgentdPaths;
}

/** Where a project's own settings live, relative to its root. */
export function projectConfigFile(cwd: string): string {
  return path.join(cwd, '.agentd', 'config.json');
}

/**
 * Reads the user file (`paths.configFile`, or `configFile` instead) and then the project
 * file `<cwd>/.agentd/config.json`, which overrides it (see mergeConfigs). For the
 * doctor and `agentd models`; the daemon reads the user file once (readUserConfig) and
 * lays each session's project over it (loadProjectConfig).
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  // Every problem of both files at once: a broken user file still lets the project file be checked.
  const problems: ConfigProblem[] = [];
  let user: UserConfigLayer = { file: undefined, json: {} };
  try {
    user = readUserConfig(options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  let loaded: LoadedConfig | undefined;
  try {
    loaded = loadProjectConfig(user, path.resolve(options.cwd ?? process.cwd()));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0 || !loaded) throw new ConfigError(problems);
  return loaded;
}

/**
 * The user file alone. Missing is fine (no settings) except a `configFile` the user named.
 * Throws ConfigError naming the file, JSON path and fix.
 */
export function readUserConfig(options: LoadConfigOptions): UserConfigLayer {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = options.configFile !== undefined ? path.resolve(cwd, options.configFile) : path.resolve(options.paths.configFile);
  const result = readConfigFile(file, AgentdConfigSchema);
  if (result.kind === 'missing') {
    if (options.configFile !== undefined) throw new ConfigError([{ file, message: 'config file not found; check the --config path' }]);
    return { file: undefined, json: {} };
  }
  if (result.kind === 'invalid') throw new ConfigError(result.problems);
  return { file, json: result.json };
}

/**
 * Lays `<cwd>/.agentd/config.json` over the user layer; `cwd` undefined gives the user
 * layer alone. The project file loses what it may not set unless the user trusts the
 * project (restrictProjectConfig). Every problem is reported at once in one ConfigError.
 */
export function loadProjectConfig(user: UserConfigLayer, cwd: string | undefined): LoadedConfig {
  const files = user.file ? [user.file] : [];
  const permissionSources: PermissionSource[] = [];
  addRules(permissionSources, user.json);
  const trustedProjects = Array.isArray(user.json.trustedProjects) ? (user.json.trustedProjects as string[]) : [];
  const trusted = cwd !== undefined && isTrustedProject(cwd, trustedProjects);
  let merged = user.json;
  let project: Record<string, unknown> = {};
  const warnings: string[] = [];
  const projectFile = cwd === undefined ? undefined : projectConfigFile(cwd);
  if (projectFile !== undefined && projectFile !== user.file) {
    // The file must stay inside the project's repository (a link to ../elsewhere or /dev/zero is refused).
    const result = readConfigFile(projectFile, AgentdConfigSchema, projectBoundaries(cwd!));
    if (result.kind === 'invalid') throw new ConfigError(result.problems);
    if (result.kind === 'ok') {
      files.push(projectFile);
      const restricted = restrictProjectConfig(result.json, cwd!, trustedProjects, user.json);
      warnings.push(...restricted.warnings);
      project = restricted.json;
      addRules(permissionSources, project);
      merged = mergeConfigs(merged, project);
    }
  }

  // Each file is valid alone; the merge keeps objects as objects and replaces everything
  // else whole, so this only fails if that reasoning is wrong: still report it clearly.
  const parsed = AgentdConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const file = files.join(' + ');
    const problems: ConfigProblem[] = describeConfigIssues(parsed.error.issues, merged, AgentdConfigSchema).map((d) => ({ file, ...d }));
    throw new ConfigError(problems);
  }
  return { config: parsed.data, files, warnings, permissionSources, trusted, project };
}

function addRules(sources: PermissionSource[], json: Record<string, unknown>): void {
  const rules = json.permissions as PermissionSource | undefined;
  if (rules && (rules.allow || rules.ask || rules.deny)) sources.push({ ...(rules.allow ? { allow: rules.allow } : {}), ...(rules.ask ? { ask: rules.ask } : {}), ...(rules.deny ? { deny: rules.deny } : {}) });
}
