import { describe, expect, it } from 'vitest';
import { listModelRows } from '../../../src/providers/catalog/list-model-rows.js';
import { createModelCatalog } from '../../../src/providers/catalog/model-catalog.js';

describe('listModelRows', () => {
  it('lists every catalog model once, sorted, with its provider readiness asked once per provider', () => {
    const asked: string[] = [];
    const rows = listModelRows({
      isConfigured: (id) => {
        asked.push(id);
        return id === 'anthropic';
      },
    });
    const refs = rows.map((row) => row.ref);
    expect(refs).toEqual(createModelCatalog().list().map((entry) => entry.ref));
    expect(refs).toEqual([...refs].sort());
    expect(new Set(asked).size).toBe(asked.length);
    expect(rows.every((row) => row.source === 'catalog')).toBe(true);
    expect(rows.filter((row) => row.configured).every((row) => row.provider === 'anthropic')).toBe(true);
    expect(rows.find((row) => row.ref === 'anthropic/claude-sonnet-4-5')).toEqual({
      ref: 'anthropic/claude-sonnet-4-5',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      configured: true,
      source: 'catalog',
      location: null,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.3,
      cacheWritePrice: 3.75,
      tools: true,
      images: true,
      thinking: true,
      regionalPrices: null,
    });
  });

  it("prices a model at its provider's location, naming it, with the regional prices alongside", () => {
    const at = (location: string | undefined) =>
      listModelRows({ isConfigured: () => true, location: (id) => (id === 'vertex' ? location : undefined) }).filter((row) => row.provider === 'vertex');
    const regional = at('us-east5');
    expect(regional.find((row) => row.model === 'claude-sonnet-4-5@20250929')).toMatchObject({
      location: 'us-east5',
      inputPrice: 3.3,
      outputPrice: 16.5,
      cacheReadPrice: 0.33,
      cacheWritePrice: 4.125,
      regionalPrices: { inputPrice: 3.3, outputPrice: 16.5, cacheReadPrice: 0.33, cacheWritePrice: 4.125 },
    });
    expect(regional.find((row) => row.model === 'gemini-2.5-flash')).toMatchObject({ location: 'us-east5', inputPrice: 0.3, outputPrice: 2.5, regionalPrices: null });
    expect(at('global').find((row) => row.model === 'claude-sonnet-4-5@20250929')).toMatchObject({ location: 'global', inputPrice: 3, outputPrice: 15 });
  });

  it('adds models declared in config and marks overridden catalog models', () => {
    const rows = listModelRows({
      overrides: {
        local: { models: { 'org/tiny-coder:7b': { contextWindow: 65_536, inputPrice: 0.1, outputPrice: 0.2, thinking: true } } },
        anthropic: { models: { 'claude-sonnet-4-5': { inputPrice: 2.5 } } },
      },
      isConfigured: (id) => id === 'local',
    });
    expect(rows.find((row) => row.ref === 'local/org/tiny-coder:7b')).toEqual({
      ref: 'local/org/tiny-coder:7b',
      provider: 'local',
      model: 'org/tiny-coder:7b',
      configured: true,
      source: 'config',
      location: null,
      contextWindow: 65_536,
      // Unset fields take the unknown-model defaults.
      maxOutputTokens: 4_096,
      inputPrice: 0.1,
      outputPrice: 0.2,
      cacheReadPrice: null,
      cacheWritePrice: null,
      tools: true,
      images: false,
      thinking: true,
      regionalPrices: null,
    });
    const sonnet = rows.find((row) => row.ref === 'anthropic/claude-sonnet-4-5');
    expect(sonnet).toMatchObject({ source: 'catalog+config', inputPrice: 2.5, outputPrice: 15, configured: false });
    expect(rows.length).toBe(createModelCatalog().list().length + 1);
  });
});
