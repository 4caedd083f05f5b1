import fs from 'node:fs';
import { ConfigError } from './config-error.js';
import type { AgentdConfig, McpServerConfig } from './config-schema.js';
import { realDir } from './is-trusted-project.js';
import { loadProjectConfig, projectConfigFile, type PermissionSource, type UserConfigLayer } from './load-config.js';

/** One session directory's settings: the user's config with that project's file laid over it. */
export interface ProjectSettings {
  /** The session directory as a real path (symlinks resolved). */
  root: string;
  /** The effective, merged configuration. */
  config: AgentdConfig;
  /** The user's own settings alone (which agent names a project may not redefine, say). */
  user: AgentdConfig;
  /** The project file's settings after restriction; {} without a file. */
  project: Partial<AgentdConfig>;
  /** Permission rules per file, user then project, kept apart. */
  permissionSources: PermissionSource[];
  /** Whether the directory itself is listed in the user's trustedProjects (a subfolder is not: see isTrustedProject). */
  trusted: boolean;
  /** Settings of an untrusted project file that were ignored. */
  warnings: string[];
}

export interface ProjectSettingsResolverOptions {
  /** The user's layer as read at start; setUser replaces it when the file changes. */
  user: UserConfigLayer;
  /** Where warnings go, each once per project and text. */
  log(line: string): void;
  /** Called with each project's effective config as it is loaded (the log learns its keys). */
  onLoaded?(config: AgentdConfig): void;
}

/** A forced re-read: the settings in force, and why the file's new content was refused. */
export interface ReloadedSettings {
  settings: ProjectSettings;
  /** Set when the file is invalid: `settings` are then the last good ones. */
  error?: ConfigError;
}

/**
 * Resolves the settings of a session's directory: the user layer and
 * `<dir>/.agentd/config.json`. Results are cached per real directory and re-read when
 * the project file's mtime, size or inode changes, checked with one stat per call; the
 * daemon calls it whenever a session takes up its settings (going live, each model
 * request), so an edit applies without a restart even where no watcher sees it. An
 * invalid project file keeps the last good settings of that directory (and says why,
 * once); without one, resolve throws the ConfigError.
 */
export class ProjectSettingsResolver {
  private readonly cache = new Map<string, { stamp: string; settings: ProjectSettings }>();
  private readonly logged = new Set<string>();
  /**
   * Each session directory's real path, resolved once: resolve runs before every model
   * request, where one stat of the project file is the only I/O it should cost.
   */
  private readonly roots = new Map<string, string>();
  private userLayer: UserConfigLayer;
  private user: AgentdConfig;

  constructor(private readonly options: ProjectSettingsResolverOptions) {
    this.userLayer = options.user;
    this.user = loadProjectConfig(options.user, undefined).config;
  }

  /** The user's own settings now. */
  get userConfig(): AgentdConfig {
    return this.user;
  }

  /**
   * Replaces the user layer (its file changed and is valid: see readUserConfig). Every
   * project is re-read on its next resolve; each keeps its settings until then.
   */
  setUser(layer: UserConfigLayer): void {
    const config = loadProjectConfig(layer, undefined).config;
    this.userLayer = layer;
    this.user = config;
    this.options.onLoaded?.(config);
    for (const entry of this.cache.values()) entry.stamp = '';
  }

  /** The settings of `dir`; throws ConfigError for an invalid project file seen for the first time. */
  resolve(dir: string): ProjectSettings {
    let root = this.roots.get(dir);
    if (root === undefined) this.roots.set(dir, (root = realDir(dir)));
    const stamp = fileStamp(projectConfigFile(root));
    const cached = this.cache.get(root);
    if (cached && cached.stamp === stamp) return cached.settings;
    try {
      return this.load(root, stamp);
    } catch (error) {
      if (!(error instanceof ConfigError) || !cached) throw error;
      this.logOnce(root, keepingLastGood(root, error));
      return cached.settings;
    }
  }

  /**
   * Re-reads `root`'s file now (a watcher saw it change), whatever its stamp: the new
   * settings, or the last good ones with the error. Throws only when there are none.
   */
  reload(root: string): ReloadedSettings {
    const stamp = fileStamp(projectConfigFile(root));
    try {
      return { settings: this.load(root, stamp) };
    } catch (error) {
      const cached = this.cache.get(root);
      if (!(error instanceof ConfigError) || !cached) throw error;
      // The caller says it now (with a notice to the sessions): not again on the next resolve.
      this.logged.add(`${root}\u0000${keepingLastGood(root, error)}`);
      return { settings: cached.settings, error };
    }
  }

  private load(root: string, stamp: string): ProjectSettings {
    const loaded = loadProjectConfig(this.userLayer, root);
    const settings: ProjectSettings = {
      root,
      config: loaded.config,
      user: this.user,
      project: loaded.project as Partial<AgentdConfig>,
      permissionSources: loaded.permissionSources,
      trusted: loaded.trusted,
      warnings: loaded.warnings,
    };
    this.options.onLoaded?.(settings.config);
    for (const warning of settings.warnings) this.logOnce(root, warning);
    this.cache.set(root, { stamp, settings });
    return settings;
  }

  private logOnce(root: string, line: string): void {
    const key = `${root}\u0000${line}`;
    if (this.logged.has(key)) return;
    this.logged.add(key);
    this.options.log(line);
  }
}

/** The project's own MCP servers (a trusted project's; an untrusted one's are stripped). */
export function projectMcpServers(settings: ProjectSettings): Record<string, McpServerConfig> {
  return settings.project.mcpServers ?? {};
}

function keepingLastGood(root: string, error: ConfigError): string {
  return `${error.message}\nkeeping the last valid settings of ${root} until the file is fixed`;
}

function fileStamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}
