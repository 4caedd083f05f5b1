import { describe, expect, it } from 'vitest';
import { createModelCatalog } from '../../../src/providers/catalog/model-catalog.js';

// models.dev's google-vertex provider (providers/google-vertex/models/*.toml over their base
// models), transcribed in test/fixtures/catalog/models-dev-excerpt.json.
describe('Vertex AI models in the catalog', () => {
  it('knows Gemini 2.5 and the Claude models on Vertex by their Vertex ids, with windows and global prices', () => {
    const catalog = createModelCatalog();
    expect(catalog.lookup('vertex/gemini-2.5-pro')).toMatchObject({ known: true, contextWindow: 1_048_576, maxOutputTokens: 65_536, inputPrice: 1.25, outputPrice: 10 });
    expect(catalog.lookup('vertex/gemini-2.5-flash')).toMatchObject({ known: true, contextWindow: 1_048_576, inputPrice: 0.3, outputPrice: 2.5 });
    expect(catalog.lookup('vertex/claude-sonnet-4-5@20250929')).toMatchObject({ known: true, contextWindow: 200_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.3, cacheWritePrice: 3.75 });
    expect(catalog.lookup('vertex/claude-opus-4-5@20251101')).toMatchObject({ known: true, inputPrice: 5, outputPrice: 25 });
    expect(catalog.lookup('vertex/claude-opus-4-1@20250805')).toMatchObject({ known: true, maxOutputTokens: 32_000, inputPrice: 15, outputPrice: 75 });
    expect(catalog.lookup('vertex/claude-haiku-4-5@20251001')).toMatchObject({ known: true, inputPrice: 1, outputPrice: 5 });
  });

  // Anthropic's "Claude on Vertex AI", "Global vs regional endpoints": +10% on a regional
  // endpoint from Claude Sonnet 4.5 on; older models keep one price.
  it('bills Claude 4.5 models 10% more at any location but global; Gemini and Opus 4.1 keep one price', () => {
    const catalog = createModelCatalog();
    const sonnet = 'vertex/claude-sonnet-4-5@20250929';
    expect(catalog.lookup(sonnet, 'us-east5')).toMatchObject({ inputPrice: 3.3, outputPrice: 16.5, cacheReadPrice: 0.33, cacheWritePrice: 4.125 });
    expect(catalog.lookup(sonnet, 'europe-west1')).toMatchObject({ inputPrice: 3.3, outputPrice: 16.5 });
    // A multi-region location (`us`, `eu`) carries the same premium on the same page.
    expect(catalog.lookup(sonnet, 'us')).toMatchObject({ inputPrice: 3.3, outputPrice: 16.5 });
    expect(catalog.lookup(sonnet, 'global')).toMatchObject({ inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.3, cacheWritePrice: 3.75 });
    expect(catalog.lookup(sonnet)).toMatchObject({ inputPrice: 3, outputPrice: 15 });
    expect(catalog.lookup('vertex/claude-opus-4-5@20251101', 'us-east5')).toMatchObject({ inputPrice: 5.5, outputPrice: 27.5 });
    expect(catalog.lookup('vertex/claude-haiku-4-5@20251001', 'us-east5')).toMatchObject({ inputPrice: 1.1, outputPrice: 5.5 });
    expect(catalog.lookup('vertex/claude-opus-4-1@20250805', 'us-east5')).toMatchObject({ inputPrice: 15, outputPrice: 75 });
    expect(catalog.lookup('vertex/gemini-2.5-pro', 'us-east5')).toMatchObject({ inputPrice: 1.25, outputPrice: 10 });
    expect(catalog.lookup('vertex/gemini-2.5-flash', 'us-east5')).toMatchObject({ inputPrice: 0.3, outputPrice: 2.5 });
  });

  it("a price set in config applies at every location: the catalog's regional prices give way", () => {
    const catalog = createModelCatalog({ vertex: { models: { 'claude-sonnet-4-5@20250929': { inputPrice: 2.7 } } } });
    const info = catalog.lookup('vertex/claude-sonnet-4-5@20250929', 'us-east5');
    expect(info).toMatchObject({ inputPrice: 2.7, outputPrice: 15 });
    expect(info.regionalPrices).toBeUndefined();
    const window = createModelCatalog({ vertex: { models: { 'claude-sonnet-4-5@20250929': { contextWindow: 1_000_000 } } } });
    expect(window.lookup('vertex/claude-sonnet-4-5@20250929', 'us-east5')).toMatchObject({ contextWindow: 1_000_000, inputPrice: 3.3 });
  });
});
