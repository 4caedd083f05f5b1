import type { AgentdConfig } from '../config/config-schema.js';
import type { ProjectSettings } from '../config/project-settings.js';
import type { TurnModel } from '../loop/loop-context.js';
import { createModelCatalog, parseModelRef, type ModelCatalog } from '../providers/catalog/model-catalog.js';
import { notInCatalogWarning } from '../providers/catalog/not-in-catalog-warning.js';
import { priceUsage } from '../providers/catalog/price-usage.js';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry/create-provider-registry.js';
import { ModelNotConfiguredError } from './model-not-configured-error.js';
import type { ProjectParts } from './project-parts.js';

/** A model ready for a turn, with what the loop needs to know about it, and the fallback that takes over from it. */
export interface ResolvedModel extends TurnModel {
  fallback?: TurnModel;
}

/**
 * The models one project's sessions can use: the user's providers and catalog, or a
 * trusted project's own when its file sets `providers` (only a trusted file can).
 */
/** A set of providers as sessions reach them: the config that defines them and the registry (with its breaker) in use. */
export interface ProviderScope {
  config: AgentdConfig;
  registry: ProviderRegistry;
}

export class ProjectModels {
  private readonly registry: ProviderRegistry;
  private readonly catalog: ModelCatalog;

  constructor(
    private readonly parts: ProjectParts,
    private readonly settings: ProjectSettings,
    /** How to configure a provider, for the error when none is. */
    private readonly setupHelp: string,
  ) {
    const ownProviders = settings.project.providers !== undefined;
    this.registry = ownProviders ? createProviderRegistry({ config: settings.config, env: parts.env }) : parts.registry;
    this.catalog = ownProviders ? createModelCatalog(settings.config.providers) : parts.catalog;
  }

  /** The project's own providers (a trusted project file that sets `providers`), with the registry its sessions use; undefined when it uses the user's. */
  ownProviders(): ProviderScope | undefined {
    return this.settings.project.providers !== undefined ? { config: this.settings.config, registry: this.registry } : undefined;
  }

  /** The models a session may pick (configured providers only). */
  choices(): Array<{ value: string; name: string }> {
    // Asked once per provider, not per model: an unconfigured provider's answer is a thrown
    // error, and the catalog lists hundreds of models (session/new waits for this list).
    const configured = new Map<string, boolean>();
    const isConfigured = (provider: string): boolean => {
      let answer = configured.get(provider);
      if (answer === undefined) configured.set(provider, (answer = this.registry.isConfigured(provider)));
      return answer;
    };
    return this.catalog
      .list()
      .filter((m) => isConfigured(m.ref.split('/')[0]!))
      .map((m) => ({ value: m.ref, name: m.ref }));
  }

  /** `ref` with the config's `fallbackModel` behind it; throws ModelNotConfiguredError when either cannot be used. */
  resolve(ref: string | undefined): ResolvedModel {
    if (!ref) throw new ModelNotConfiguredError(`no model is configured.\n${this.setupHelp}`);
    const primary = this.turnModel(ref, 'model');
    const fallbackRef = this.settings.config.fallbackModel;
    if (fallbackRef === undefined || fallbackRef === ref) return primary;
    return { ...primary, fallback: this.turnModel(fallbackRef, 'fallbackModel') };
  }

  /** A model with its facts; `setting` names where the ref came from for the error. */
  private turnModel(ref: string, setting: 'model' | 'fallbackModel'): TurnModel {
    let model;
    try {
      // Retries and the circuit breaker come wrapped by the registry; the loop turns to the fallback.
      model = this.registry.resolve(ref);
    } catch (error) {
      throw new ModelNotConfiguredError(`${setting} ${ref} cannot be used: ${(error as Error).message}`);
    }
    // Priced where the provider actually calls: a Vertex region may bill more than its global endpoint.
    const info = this.catalog.lookup(ref, this.registry.location(parseModelRef(ref).provider));
    // Once per model per machine: it stays true run after run, and `agentd doctor` shows it again.
    if (!info.known && this.parts.rememberedWarnings.firstTime(`not-in-catalog ${ref}`)) this.parts.log(notInCatalogWarning(ref, info.contextWindow));
    return { ref, model, contextWindow: info.contextWindow, maxOutputTokens: info.maxOutputTokens, price: (usage) => priceUsage(info, usage).usd };
  }
}
