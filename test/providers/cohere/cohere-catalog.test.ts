import { describe, expect, it } from 'vitest';
import { createModelCatalog } from '../../../src/providers/catalog/model-catalog.js';

/**
 * Cohere's current chat models, with the figures Cohere publishes: context and output limits
 * from docs.cohere.com/docs/models, prices (USD per 1M tokens) from the model pages
 * (docs.cohere.com/docs/command-a, command-r-plus, command-r, command-r7b) and cohere.com/pricing.
 */
describe('the catalog knows Cohere\'s chat models', () => {
  const catalog = createModelCatalog();

  it.each([
    ['command-a-03-2025', 256_000, 8_000, 2.5, 10],
    ['command-r-plus-08-2024', 128_000, 4_000, 2.5, 10],
    ['command-r-08-2024', 128_000, 4_000, 0.15, 0.6],
    ['command-r7b-12-2024', 128_000, 4_000, 0.0375, 0.15],
  ])('%s: %i-token window, %i output, $%d / $%d', (id, contextWindow, maxOutputTokens, inputPrice, outputPrice) => {
    expect(catalog.lookup(`cohere/${id}`)).toMatchObject({ contextWindow, maxOutputTokens, inputPrice, outputPrice, tools: true, known: true });
  });

  it('marks the reasoning and vision models as such', () => {
    expect(catalog.lookup('cohere/command-a-reasoning-08-2025')).toMatchObject({ contextWindow: 256_000, maxOutputTokens: 32_000, thinking: true, known: true });
    expect(catalog.lookup('cohere/command-a-plus-05-2026')).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 64_000, thinking: true, images: true, known: true });
    expect(catalog.lookup('cohere/command-a-vision-07-2025')).toMatchObject({ images: true, tools: false, known: true });
  });
});
