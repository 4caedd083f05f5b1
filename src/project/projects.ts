import type { AgentdConfig } from '../config/config-schema.js';
import type { ProjectSettingsResolver } from '../config/project-settings.js';
import { createModelCatalog } from '../providers/catalog/model-catalog.js';
import { createProviderRegistry } from '../providers/registry/create-provider-registry.js';
import { detectSandbox, type SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { Project } from './project.js';
import type { ProjectParts } from './project-parts.js';
import type { ProviderScope } from './project-models.js';

/**
 * The daemon's projects: one Project per settings root, made when a session there first
 * goes live and kept for the daemon's life. A change of any file a project reads raises
 * its version (see Project), which is how the change reaches its sessions' next model request.
 */
export class Projects {
  private readonly byRoot = new Map<string, Project>();

  constructor(
    private readonly resolver: ProjectSettingsResolver,
    private readonly parts: ProjectParts,
  ) {}

  /**
   * The project of a session directory, with its settings as they are now (the resolver
   * re-reads a project file whose stamp changed); throws ConfigError when they cannot be loaded.
   */
  for(cwd: string): Project {
    const settings = this.resolver.resolve(cwd);
    const project = this.byRoot.get(settings.root);
    if (!project) {
      const made = new Project(settings, this.parts);
      this.byRoot.set(settings.root, made);
      return made;
    }
    if (project.settings !== settings) project.update(settings);
    return project;
  }

  /** Files a project reads on use changed (every project's when `root` is undefined): its sessions rebuild. */
  touch(root: string | undefined): void {
    if (root === undefined) for (const project of this.byRoot.values()) project.touch();
    else this.byRoot.get(root)?.touch();
  }

  /**
   * The user's config changed: the providers, catalog and sandbox probe every project
   * shares follow it, and each project takes up its new settings when next asked for.
   */
  replaceUserConfig(config: AgentdConfig): void {
    const { parts } = this;
    const sandboxChanged = (config.sandbox?.enabled !== false) !== (parts.userConfig.sandbox?.enabled !== false);
    parts.userConfig = config;
    parts.registry = createProviderRegistry({ config, env: parts.env });
    parts.catalog = createModelCatalog(config.providers);
    if (sandboxChanged) parts.sandbox = userSandbox(config);
    for (const project of this.byRoot.values()) {
      try {
        project.update(this.resolver.resolve(project.root));
      } catch {
        // Its own file is broken: it keeps its settings (the resolver said why), on the new shared parts.
        project.update(project.settings);
      }
    }
  }

  /** Every set of providers sessions use now: the user's (project null), then each project's own, by settings root. */
  providerScopes(): Array<ProviderScope & { project: string | null }> {
    const scopes: Array<ProviderScope & { project: string | null }> = [{ project: null, config: this.parts.userConfig, registry: this.parts.registry }];
    for (const project of this.byRoot.values()) {
      const own = project.ownProviders();
      if (own !== undefined) scopes.push({ project: project.root, ...own });
    }
    return scopes;
  }

  /** The user's config in force. */
  get userConfig(): AgentdConfig {
    return this.parts.userConfig;
  }
}

/** The sandbox probe the user's config asks for: none when `sandbox.enabled` is false (bash then asks every time). */
export function userSandbox(config: AgentdConfig): Promise<SandboxInfo> {
  return config.sandbox?.enabled === false ? Promise.resolve<SandboxInfo>({ mode: 'none', reason: 'turned off by sandbox.enabled in config' }) : detectSandbox();
}
