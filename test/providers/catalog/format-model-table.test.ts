import { describe, expect, it } from 'vitest';
import { formatModelTable } from '../../../src/providers/catalog/format-model-table.js';
import type { ModelRow } from '../../../src/providers/catalog/list-model-rows.js';

const row = (over: Partial<ModelRow>): ModelRow => ({
  ref: 'p/m',
  provider: 'p',
  model: 'm',
  configured: false,
  source: 'catalog',
  contextWindow: 1_000_000,
  maxOutputTokens: 128_000,
  inputPrice: 5,
  outputPrice: 25,
  cacheReadPrice: 0.5,
  cacheWritePrice: 6.25,
  tools: true,
  images: true,
  thinking: true,
  location: null,
  regionalPrices: null,
  ...over,
});

describe('formatModelTable', () => {
  it('aligns every column under its header, numbers to the right', () => {
    const text = formatModelTable([
      row({ ref: 'anthropic/claude-opus-5', configured: true }),
      row({ ref: 'local/tiny', contextWindow: 32_768, maxOutputTokens: 4_096, inputPrice: 0.075, outputPrice: 0, cacheReadPrice: null, cacheWritePrice: null, images: false, thinking: false }),
    ]);
    const lines = text.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'MODEL                      CONTEXT  MAX OUT     IN    OUT  CACHE R  CACHE W  CAPABILITIES           CONFIGURED',
      'anthropic/claude-opus-5  1,000,000  128,000   5.00  25.00     0.50     6.25  tools,images,thinking  yes',
      'local/tiny                  32,768    4,096  0.075   0.00        -        -  tools                  no',
    ]);
    expect(lines[4]).toMatch(/USD per 1M tokens/);
    expect(text.endsWith('\n')).toBe(true);
  });

  it("names each provider's location when a model bills more on a regional endpoint", () => {
    const plain = formatModelTable([row({})]);
    expect(plain).not.toContain('Regional prices');
    const text = formatModelTable([
      row({ ref: 'vertex/claude-sonnet-4-5@20250929', provider: 'vertex', location: 'us-east5', inputPrice: 3.3, regionalPrices: { inputPrice: 3.3, outputPrice: 16.5 } }),
      row({ ref: 'vertex/gemini-2.5-flash', provider: 'vertex', location: 'us-east5' }),
    ]);
    expect(text.split('\n')[1]).toMatch(/^vertex\/claude-sonnet-4-5@20250929 .* 3\.30 /);
    expect(text.endsWith('Regional prices: one model bills more on a regional endpoint than on "global"; shown at each provider\'s location (vertex: us-east5); --json lists both.\n')).toBe(true);
  });

  it('says so when nothing matches instead of printing a bare header', () => {
    expect(formatModelTable([])).toBe('No models match.\n');
  });

  it('shows "-" for a model with no capability at all', () => {
    const [, first] = formatModelTable([row({ tools: false, images: false, thinking: false })]).split('\n');
    expect(first).toMatch(/ - +no$/);
  });
});
