// The data is imported as a JSON module (import attributes: TypeScript 5.3+, Node 20.10+), so
// it works from the sources under vitest and from dist/ under node: tsc copies models.json
// next to the compiled file (resolveJsonModule), and no path is computed at run time.
import catalogData from './models.json' with { type: 'json' };
import { UNKNOWN_MODEL_DEFAULTS, type ModelInfo, type ModelOverride } from './model-info.js';

/** Config overrides per provider id: the `models` of `providers.<id>` in config.json. */
export type ModelCatalogOverrides = Record<string, { models?: Record<string, ModelOverride> }>;

/** A lookup result; `known` is false when neither the catalog nor config describes the model. */
export type ModelLookup = ModelInfo & { known: boolean };

export interface ModelCatalog {
  /**
   * Everything known about `provider/model`, with defaults for an unknown model.
   * `location`: where the provider's requests go (ProviderRegistry.location); any location
   * but `global` bills the model's regional prices when it has them.
   */
  lookup(ref: string, location?: string): ModelLookup;
  /** Every catalog and configured model, overrides applied, sorted by ref. */
  list(): Array<{ ref: string } & ModelInfo>;
}

/**
 * Anthropic bills a 5-minute cache write at 1.25× the base input price
 * (https://platform.claude.com/docs/en/about-claude/pricing, "Prompt caching"); applied when
 * an Anthropic model has no explicit cache write price. Other vendors document no such
 * rule, so their writes fall back to the input price in priceUsage.
 */
const ANTHROPIC_CACHE_WRITE_MULTIPLIER = 1.25;

/** The location name of a cloud's global endpoint (Vertex AI's `locations/global`), billed at the base prices. */
const GLOBAL_LOCATION = 'global';

const COUNT_FIELDS = ['contextWindow', 'maxOutputTokens'] as const;
const PRICE_FIELDS = ['inputPrice', 'outputPrice', 'cacheReadPrice', 'cacheWritePrice'] as const;
const FLAG_FIELDS = ['tools', 'images', 'thinking'] as const;
/** Model settings of the wire, not catalog facts (checked by the config schema, read by the provider). */
const WIRE_FIELDS = new Set<string>(['reasoningTag']);
const KNOWN_FIELDS = new Set<string>([...COUNT_FIELDS, ...PRICE_FIELDS, ...FLAG_FIELDS]);

/** Splits `provider/model` at the first slash (model ids may contain more, e.g. on OpenRouter). */
export function parseModelRef(ref: string): { provider: string; model: string } {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) {
    throw new Error(`model reference "${ref}" must be "provider/model", e.g. "anthropic/claude-sonnet-4-5" or "openai/gpt-5"`);
  }
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

/** Rejects an override that would make limits or prices meaningless, naming its config path. */
function validateOverride(where: string, override: unknown): ModelOverride {
  if (override === null || typeof override !== 'object' || Array.isArray(override)) {
    throw new Error(`${where} must be an object like { "contextWindow": 200000, "inputPrice": 3 }`);
  }
  const record = Object.fromEntries(Object.entries(override).filter(([field]) => !WIRE_FIELDS.has(field)));
  for (const [field, value] of Object.entries(record)) {
    if (!KNOWN_FIELDS.has(field)) {
      throw new Error(`${where}.${field} is not a model setting; use one of ${[...KNOWN_FIELDS].join(', ')}`);
    }
    if ((COUNT_FIELDS as readonly string[]).includes(field) && !(Number.isInteger(value) && (value as number) > 0)) {
      throw new Error(`${where}.${field} must be a positive whole number of tokens, got ${JSON.stringify(value)}`);
    }
    if ((PRICE_FIELDS as readonly string[]).includes(field) && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new Error(`${where}.${field} must be a price in USD per 1M tokens (a number ≥ 0), got ${JSON.stringify(value)}`);
    }
    if ((FLAG_FIELDS as readonly string[]).includes(field) && typeof value !== 'boolean') {
      throw new Error(`${where}.${field} must be true or false, got ${JSON.stringify(value)}`);
    }
  }
  return record as ModelOverride;
}

/** Fills vendor conventions the data leaves implicit. */
function withConventions(provider: string, info: ModelInfo): ModelInfo {
  if (provider === 'anthropic' && info.cacheWritePrice === undefined) {
    return { ...info, cacheWritePrice: info.inputPrice * ANTHROPIC_CACHE_WRITE_MULTIPLIER };
  }
  return info;
}

/** A price set in config is the user's price everywhere: the catalog's regional prices give way to it. */
function withoutRegionalIfPriced(info: ModelInfo, override: ModelOverride | undefined): ModelInfo {
  if (info.regionalPrices === undefined || !PRICE_FIELDS.some((field) => override?.[field] !== undefined)) return info;
  const { regionalPrices: _regional, ...rest } = info;
  return rest;
}

/** The prices billed at `location`: the regional ones anywhere but the global endpoint. */
function atLocation(info: ModelInfo, location: string | undefined): ModelInfo {
  if (location === undefined || location === GLOBAL_LOCATION || info.regionalPrices === undefined) return info;
  return { ...info, ...info.regionalPrices };
}

/**
 * The model catalog: checked-in data (models.json, generated from models.dev) with config
 * overrides merged over it field by field. An override for a model the data lacks makes it
 * known, on top of the conservative defaults for the fields it does not set.
 */
export function createModelCatalog(overrides: ModelCatalogOverrides = {}): ModelCatalog {
  const data = catalogData.models as Record<string, ModelInfo>;
  const configured = new Map<string, ModelOverride>();
  for (const [provider, settings] of Object.entries(overrides)) {
    for (const [model, override] of Object.entries(settings.models ?? {})) {
      const facts = validateOverride(`providers.${provider}.models.${model}`, override);
      // A model named only for a wire setting (its reasoningTag) is not described by it.
      if (Object.keys(facts).length > 0 || Object.keys(override).length === 0) configured.set(`${provider}/${model}`, facts);
    }
  }

  const lookup = (ref: string, location?: string): ModelLookup => {
    const { provider } = parseModelRef(ref);
    const base = data[ref];
    const override = configured.get(ref);
    const merged = withConventions(provider, { ...(base ?? UNKNOWN_MODEL_DEFAULTS), ...override });
    const info = atLocation(withoutRegionalIfPriced(merged, override), location);
    return { ...info, known: base !== undefined || override !== undefined };
  };

  return {
    lookup,
    list: () =>
      [...new Set([...Object.keys(data), ...configured.keys()])].sort().map((ref) => {
        const { known: _known, ...info } = lookup(ref);
        return { ref, ...info };
      }),
  };
}
