import type { ModelRow } from './list-model-rows.js';
import { createModelCatalog, type ModelCatalogOverrides } from './model-catalog.js';

/**
 * Rows for the models a provider's own list offers (an OpenAI-compatible server's
 * `/v1/models`) that `rows` does not have yet: configured by definition (the server
 * answered), with what the catalog knows of them (an unknown model's defaults, or config).
 */
export function serverModelRows(provider: string, ids: readonly string[], rows: readonly ModelRow[], overrides: ModelCatalogOverrides = {}): ModelRow[] {
  const catalog = createModelCatalog(overrides);
  const listed = new Set(rows.map((row) => row.ref));
  return ids
    .map((model) => `${provider}/${model}`)
    .filter((ref) => !listed.has(ref))
    .map((ref) => {
      const { known: _known, regionalPrices, ...info } = catalog.lookup(ref);
      return {
        ref,
        provider,
        model: ref.slice(provider.length + 1),
        configured: true,
        source: 'server' as const,
        ...info,
        cacheReadPrice: info.cacheReadPrice ?? null,
        cacheWritePrice: info.cacheWritePrice ?? null,
        // A server's own list (OpenAI-compatible servers, Copilot) has no location to price by.
        location: null,
        regionalPrices: regionalPrices ?? null,
      };
    });
}
