import path from 'node:path';
import type { AgentdPaths } from './agentd-paths.js';
import { ConfigError, type ConfigProblem } from './config-error.js';
import { type AgentdConfig, AgentdConfigSchema } from './config-schema.js';
import { describeConfigIssues } from './describe-config-issues.js';
import { mergeConfigs } from './merge-configs.js';
import { readConfigFile } from './read-config-file.js';
import { restrictProjectConfig } from './restrict-project-config.js';

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
  permissionSources: Array<{ allow?: string[]; ask?: string[]; deny?: string[] }>;
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
 * file `<cwd>/.agentd/config.json`, which overrides it (see mergeConfigs). Missing files
 * are skipped, except a `configFile` the user named. Every problem in every file is
 * reported at once in one ConfigError. Synchronous: it runs once, at start-up.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const userFile =
    options.configFile !== undefined ? path.resolve(cwd, options.configFile) : path.resolve(options.paths.configFile);
  const projectFile = projectConfigFile(cwd);
  const candidates = projectFile === userFile ? [userFile] : [userFile, projectFile];

  const problems: ConfigProblem[] = [];
  const files: string[] = [];
  const warnings: string[] = [];
  const permissionSources: LoadedConfig['permissionSources'] = [];
  let merged: Record<string, unknown> = {};
  for (const file of candidates) {
    const result = readConfigFile(file, AgentdConfigSchema);
    if (result.kind === 'missing') {
      if (file === userFile && options.configFile !== undefined) {
        problems.push({ file, message: 'config file not found; check the --config path' });
      }
      continue;
    }
    files.push(file);
    if (result.kind === 'invalid') {
      problems.push(...result.problems);
      continue;
    }
    let json = result.json;
    if (file === projectFile && file !== userFile) {
      const trusted = Array.isArray(merged.trustedProjects) ? (merged.trustedProjects as string[]) : [];
      const restricted = restrictProjectConfig(json, cwd, trusted);
      warnings.push(...restricted.warnings);
      json = restricted.json;
    }
    const rules = json.permissions as { allow?: string[]; ask?: string[]; deny?: string[] } | undefined;
    if (rules) permissionSources.push({ ...(rules.allow ? { allow: rules.allow } : {}), ...(rules.ask ? { ask: rules.ask } : {}), ...(rules.deny ? { deny: rules.deny } : {}) });
    merged = mergeConfigs(merged, json);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  // Each file is valid alone; the merge keeps objects as objects and replaces everything
  // else whole, so this only fails if that reasoning is wrong: still report it clearly.
  const parsed = AgentdConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const file = files.join(' + ');
    throw new ConfigError(
      describeConfigIssues(parsed.error.issues, merged, AgentdConfigSchema).map((d) => ({ file, ...d })),
    );
  }
  return { config: parsed.data, files, warnings, permissionSources };
}
