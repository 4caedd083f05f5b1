/** What agentd knows about one model: limits, prices and capabilities. */
export interface ModelInfo {
  /** Maximum tokens in the window, prompt and output together. */
  contextWindow: number;
  /** Maximum output tokens of one response (reasoning included). */
  maxOutputTokens: number;
  /** USD per 1M input tokens billed at the normal rate. */
  inputPrice: number;
  /** USD per 1M output tokens (reasoning tokens are billed as output). */
  outputPrice: number;
  /** USD per 1M input tokens read from the prompt cache; the input price when undefined. */
  cacheReadPrice?: number;
  /** USD per 1M input tokens written to the prompt cache; the input price when undefined. */
  cacheWritePrice?: number;
  /** Accepts tool (function) definitions. */
  tools: boolean;
  /** Accepts image input. */
  images: boolean;
  /** Can reason before answering (extended thinking, reasoning effort). */
  thinking: boolean;
  /**
   * The prices on a regional endpoint, where the vendor bills them above its global
   * endpoint's (the prices above): Claude 4.5-generation models on Vertex AI. Applied when
   * the provider calls a location other than `global` (see ModelCatalog.lookup).
   */
  regionalPrices?: RegionalPrices;
}

/** A model's prices on a regional endpoint, USD per 1M tokens, like ModelInfo's. */
export interface RegionalPrices {
  inputPrice: number;
  outputPrice: number;
  cacheReadPrice?: number;
  cacheWritePrice?: number;
}

/** A config override (`providers.<id>.models.<model>`): any field but the regional prices, merged over the catalog. */
export type ModelOverride = Partial<Omit<ModelInfo, 'regionalPrices'>>;

/**
 * What an unknown model is assumed to be. Small on purpose: a 32 768-token window and
 * 4 096-token output fit nearly every model still served, so compaction starts early
 * rather than the vendor rejecting an oversized prompt. Prices are 0 (cost unknown, not
 * free: `known: false` tells the caller to warn), tools are assumed (an agent cannot work
 * without them, and a vendor that lacks them answers with a clear 400), images and
 * thinking are not.
 */
export const UNKNOWN_MODEL_DEFAULTS: Readonly<ModelInfo> = Object.freeze({
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
  inputPrice: 0,
  outputPrice: 0,
  tools: true,
  images: false,
  thinking: false,
});
