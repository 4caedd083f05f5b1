import { createModelCatalog, parseModelRef, type ModelCatalogOverrides } from './model-catalog.js';
import type { RegionalPrices } from './model-info.js';

/** One line of `agentd models`: a model, what is known about it and whether it can be used now. */
export interface ModelRow {
  /** `provider/model`, as `--model` and config `model` take it. */
  ref: string;
  /** The provider id (before the first slash). */
  provider: string;
  /** The vendor's model id (after the first slash; may contain more slashes). */
  model: string;
  /**
   * Whether the provider can be called right now: its key is present (environment or
   * config), or it is a keyless local preset, and its base URL is known.
   */
  configured: boolean;
  /**
   * Where the facts come from: the checked-in catalog, config (`providers.<id>.models`), or
   * config over the catalog; `server` is a model only the provider's own list offers
   * (`agentd models --configured`), with the facts of an unknown model.
   */
  source: 'catalog' | 'config' | 'catalog+config' | 'server';
  /** Maximum tokens in the window, prompt and output together. */
  contextWindow: number;
  /** Maximum output tokens of one response. */
  maxOutputTokens: number;
  /**
   * The location the prices are for, when the provider's vendor prices by location (a
   * Vertex provider's `global` or region); null for every other provider.
   */
  location: string | null;
  /** USD per 1M input tokens (at `location`). */
  inputPrice: number;
  /** USD per 1M output tokens. */
  outputPrice: number;
  /** USD per 1M cached input tokens read; null when the model has no separate price (billed as input). */
  cacheReadPrice: number | null;
  /** USD per 1M input tokens written to the cache; null when the model has no separate price (billed as input). */
  cacheWritePrice: number | null;
  /** Accepts tool definitions. */
  tools: boolean;
  /** Accepts image input. */
  images: boolean;
  /** Can reason before answering. */
  thinking: boolean;
  /** The prices on a regional endpoint, where they are above the global ones (ModelInfo.regionalPrices); null when none. */
  regionalPrices: RegionalPrices | null;
}

export interface ListModelRowsOptions {
  /** `providers` of the loaded config: its `models` are declared or overridden models. */
  overrides?: ModelCatalogOverrides;
  /** Whether a provider id is usable now, e.g. `registry.isConfigured`; asked once per provider. */
  isConfigured: (providerId: string) => boolean;
  /** Where a provider's requests go when its vendor prices by location, e.g. `registry.location`; rows are priced there. */
  location?: (providerId: string) => string | undefined;
}

/**
 * Every catalog model plus every model declared in config, overrides applied, sorted by
 * ref, each marked with its provider's readiness. A pure view over the catalog: the
 * registry's answer comes in through `isConfigured`, so catalog/ never depends on it.
 */
export function listModelRows(options: ListModelRowsOptions): ModelRow[] {
  const overrides = options.overrides ?? {};
  const builtIn = createModelCatalog();
  const readiness = new Map<string, boolean>();
  const ready = (provider: string): boolean => {
    let answer = readiness.get(provider);
    if (answer === undefined) {
      answer = options.isConfigured(provider);
      readiness.set(provider, answer);
    }
    return answer;
  };

  const catalog = createModelCatalog(overrides);
  return catalog
    .list()
    .map(({ ref }) => {
      const { provider, model } = parseModelRef(ref);
      const location = options.location?.(provider);
      const entry = { ref, ...catalog.lookup(ref, location) };
      const inCatalog = builtIn.lookup(entry.ref).known;
      const inConfig = overrides[provider]?.models?.[model] !== undefined;
      return {
        ref: entry.ref,
        provider,
        model,
        configured: ready(provider),
        source: inCatalog && inConfig ? 'catalog+config' : inConfig ? 'config' : 'catalog',
        location: location ?? null,
        contextWindow: entry.contextWindow,
        maxOutputTokens: entry.maxOutputTokens,
        inputPrice: entry.inputPrice,
        outputPrice: entry.outputPrice,
        cacheReadPrice: entry.cacheReadPrice ?? null,
        cacheWritePrice: entry.cacheWritePrice ?? null,
        tools: entry.tools,
        images: entry.images,
        thinking: entry.thinking,
        regionalPrices: entry.regionalPrices ?? null,
      };
    });
}
