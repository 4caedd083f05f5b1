import type { AgentdConfig } from '../config/config-schema.js';
import type { ProjectSettings, ProjectSettingsResolver } from '../config/project-settings.js';
import { createModelCatalog } from '../providers/catalog/model-catalog.js';
import { createProviderRegistry } from '../providers/registry/create-provider-registry.js';
import type { SessionServices } from '../session/session-services.js';
import { createProjectServices, userSandbox, type SharedServiceParts } from './create-project-services.js';

/**
 * The services of each session directory, built once per settings and per generation of
 * the files they read on use (AGENTS.md, skills, agent files): a session compares the
 * services it gets with those it has to know that its configuration changed, so a new
 * object is what makes a change reach a running turn's next model request.
 */
export class ProjectServicesCache {
  private readonly built = new WeakMap<ProjectSettings, { generation: string; services: SessionServices }>();
  private readonly generations = new Map<string, number>();
  private userGeneration = 0;

  constructor(
    private readonly projects: ProjectSettingsResolver,
    private readonly shared: SharedServiceParts,
  ) {}

  /** The services of `cwd`'s settings now; throws ConfigError when they cannot be loaded. */
  servicesFor(cwd: string): SessionServices {
    const settings = this.projects.resolve(cwd);
    const generation = `${this.userGeneration}:${this.generations.get(settings.root) ?? 0}`;
    const cached = this.built.get(settings);
    if (cached && cached.generation === generation) return cached.services;
    const services = createProjectServices(settings, this.shared);
    this.built.set(settings, { generation, services });
    return services;
  }

  /** Files a project reads on use changed (every project's when `root` is undefined): build anew. */
  renew(root: string | undefined): void {
    if (root === undefined) this.userGeneration++;
    else this.generations.set(root, (this.generations.get(root) ?? 0) + 1);
  }

  /** The user's config changed: the providers, catalog and sandbox probe every project shares follow it. */
  replaceUserConfig(config: AgentdConfig): void {
    const { shared } = this;
    const sandboxChanged = (config.sandbox?.enabled !== false) !== (shared.userConfig.sandbox?.enabled !== false);
    shared.userConfig = config;
    shared.registry = createProviderRegistry({ config, env: shared.env });
    shared.catalog = createModelCatalog(config.providers);
    if (sandboxChanged) shared.sandbox = userSandbox(config);
    this.renew(undefined);
  }

  /** The user's config in force. */
  get userConfig(): AgentdConfig {
    return this.shared.userConfig;
  }
}
