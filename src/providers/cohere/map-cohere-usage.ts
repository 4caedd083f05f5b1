import type { Usage } from '../usage.js';
import type { CohereUsage } from './cohere-stream-schema.js';

/**
 * Cohere `usage` → unified usage. Cohere reports three things
 * (https://docs.cohere.com/docs/how-does-cohere-pricing-work, "billed tokens"; `Usage` in
 * its OpenAPI spec): `billed_units` — the tokens it charges for; `tokens` — all tokens,
 * including what Cohere adds itself (its own prompt around the tools and documents,
 * special output tokens), which it does not charge; and `cached_tokens` — prompt tokens
 * that hit its inference cache.
 *
 * - inputTokens / outputTokens are the billed units, so the price is what Cohere bills.
 * - cacheReadTokens is `cached_tokens`: they fill the context window like any prompt
 *   token, so the loop's context measure (which adds the input counts) sees them. Cohere
 *   publishes no cache price, so they are priced at the input rate, which never
 *   under-counts.
 * - Without billed units (a compatible server), `tokens` stand in, less the cached ones.
 * Reasoning tokens are not reported apart.
 */
export function mapCohereUsage(usage: CohereUsage): Usage {
  const cached = usage.cached_tokens ?? 0;
  const billed = usage.billed_units;
  const all = usage.tokens;
  return {
    inputTokens: billed?.input_tokens ?? Math.max(0, (all?.input_tokens ?? 0) - cached),
    outputTokens: billed?.output_tokens ?? all?.output_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
}
