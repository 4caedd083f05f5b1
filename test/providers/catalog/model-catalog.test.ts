import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createModelCatalog, parseModelRef } from '../../../src/providers/catalog/model-catalog.js';
import { UNKNOWN_MODEL_DEFAULTS } from '../../../src/providers/catalog/model-info.js';

const modelsJsonPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/providers/catalog/models.json');

describe('models.json', () => {
  const data = JSON.parse(fs.readFileSync(modelsJsonPath, 'utf8')) as { source: string; models: Record<string, Record<string, unknown>> };

  it('names its source and date', () => {
    expect(data.source).toMatch(/models\.dev/);
    expect(data.source).toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('covers every built-in provider with well-formed entries', () => {
    const providers = new Set(Object.keys(data.models).map((ref) => parseModelRef(ref).provider));
    for (const id of ['anthropic', 'openai', 'google', 'deepseek', 'mistral', 'groq', 'xai']) expect(providers, id).toContain(id);
    for (const [ref, entry] of Object.entries(data.models)) {
      expect(Number.isInteger(entry['contextWindow']) && (entry['contextWindow'] as number) > 0, ref).toBe(true);
      expect(Number.isInteger(entry['maxOutputTokens']) && (entry['maxOutputTokens'] as number) > 0, ref).toBe(true);
      for (const price of ['inputPrice', 'outputPrice']) expect(typeof entry[price] === 'number' && (entry[price] as number) >= 0, `${ref} ${price}`).toBe(true);
      for (const flag of ['tools', 'images', 'thinking']) expect(typeof entry[flag], `${ref} ${flag}`).toBe('boolean');
    }
  });
});

describe('createModelCatalog().lookup', () => {
  it('returns the catalog data for a known model', () => {
    expect(createModelCatalog().lookup('anthropic/claude-sonnet-4-5')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.3,
      cacheWritePrice: 3.75,
      tools: true,
      images: true,
      thinking: true,
      known: true,
    });
    expect(createModelCatalog().lookup('groq/openai/gpt-oss-120b').known).toBe(true);
  });

  it('gives an unknown model the conservative defaults and known: false', () => {
    expect(createModelCatalog().lookup('local/my-finetune')).toEqual({ ...UNKNOWN_MODEL_DEFAULTS, known: false });
    expect(UNKNOWN_MODEL_DEFAULTS).toEqual({
      contextWindow: 32_768,
      maxOutputTokens: 4_096,
      inputPrice: 0,
      outputPrice: 0,
      tools: true,
      images: false,
      thinking: false,
    });
  });

  it('merges config overrides field by field over the data', () => {
    const catalog = createModelCatalog({ openai: { models: { 'gpt-5': { inputPrice: 1, contextWindow: 272_000 } } } });
    expect(catalog.lookup('openai/gpt-5')).toEqual({
      contextWindow: 272_000,
      maxOutputTokens: 128_000,
      inputPrice: 1,
      outputPrice: 10,
      cacheReadPrice: 0.125,
      tools: true,
      images: true,
      thinking: true,
      known: true,
    });
    // Other models of the provider are untouched.
    expect(catalog.lookup('openai/gpt-5-mini').inputPrice).toBe(0.25);
  });

  it('makes a configured model known, over the defaults', () => {
    const catalog = createModelCatalog({ local: { models: { 'qwen3-coder': { contextWindow: 131_072, images: true } } } });
    expect(catalog.lookup('local/qwen3-coder')).toEqual({ ...UNKNOWN_MODEL_DEFAULTS, contextWindow: 131_072, images: true, known: true });
  });

  it('prices Anthropic cache writes at 1.25× input when no write price is given', () => {
    const catalog = createModelCatalog({ anthropic: { models: { 'claude-new': { inputPrice: 4, outputPrice: 20 } } } });
    expect(catalog.lookup('anthropic/claude-new').cacheWritePrice).toBe(5);
    expect(catalog.lookup('openai/gpt-5').cacheWritePrice).toBeUndefined();
  });

  it('rejects a reference without a provider', () => {
    expect(() => createModelCatalog().lookup('gpt-5')).toThrow('model reference "gpt-5" must be "provider/model"');
    expect(() => createModelCatalog().lookup('openai/')).toThrow(/provider\/model/);
  });

  it('rejects bad overrides naming the config path and the fix', () => {
    expect(() => createModelCatalog({ openai: { models: { 'gpt-5': { contextWindow: -1 } } } })).toThrow(
      'providers.openai.models.gpt-5.contextWindow must be a positive whole number of tokens, got -1',
    );
    expect(() => createModelCatalog({ openai: { models: { 'gpt-5': { inputPrice: Number.NaN } } } })).toThrow(
      /providers\.openai\.models\.gpt-5\.inputPrice must be a price/,
    );
    expect(() => createModelCatalog({ openai: { models: { 'gpt-5': { tools: 'yes' as unknown as boolean } } } })).toThrow(
      'providers.openai.models.gpt-5.tools must be true or false, got "yes"',
    );
    expect(() => createModelCatalog({ openai: { models: { 'gpt-5': { context: 5 } as never } } })).toThrow(
      /providers\.openai\.models\.gpt-5\.context is not a model setting; use one of contextWindow/,
    );
  });

  it('leaves out reasoningTag, a setting of the wire the provider reads, and is not told about a model by it alone', () => {
    const catalog = createModelCatalog({
      local: { models: { 'my-r1': { reasoningTag: 'think', contextWindow: 65_536 } as never, 'my-qwen': { reasoningTag: false } as never } },
    });
    expect(catalog.lookup('local/my-r1')).toEqual({ ...UNKNOWN_MODEL_DEFAULTS, contextWindow: 65_536, known: true });
    expect(catalog.lookup('local/my-qwen')).toEqual({ ...UNKNOWN_MODEL_DEFAULTS, known: false });
  });
});

describe('createModelCatalog().list', () => {
  it('lists catalog and configured models, sorted, with overrides applied', () => {
    const list = createModelCatalog({ local: { models: { tiny: { contextWindow: 8192 } } } }).list();
    const refs = list.map((entry) => entry.ref);
    expect(refs).toEqual([...refs].sort());
    expect(refs).toContain('openai/gpt-5');
    expect(list.find((entry) => entry.ref === 'local/tiny')).toEqual({ ref: 'local/tiny', ...UNKNOWN_MODEL_DEFAULTS, contextWindow: 8192 });
    expect(list.every((entry) => !('known' in entry))).toBe(true);
  });
});
