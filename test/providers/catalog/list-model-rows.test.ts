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
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.3,
      cacheWritePrice: 3.75,
      tools: true,
      images: true,
      thinking: true,
    });
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
    });
    const sonnet = rows.find((row) => row.ref === 'anthropic/claude-sonnet-4-5');
    expect(sonnet).toMatchObject({ source: 'catalog+config', inputPrice: 2.5, outputPrice: 15, configured: false });
    expect(rows.length).toBe(createModelCatalog().list().length + 1);
  });
});
