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
});
