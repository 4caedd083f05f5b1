import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../../src/providers/catalog/model-info.js';
import { priceUsage } from '../../../src/providers/catalog/price-usage.js';

const sonnet: ModelInfo = {
  contextWindow: 200_000,
  maxOutputTokens: 64_000,
  inputPrice: 3,
  outputPrice: 15,
  cacheReadPrice: 0.3,
  cacheWritePrice: 3.75,
  tools: true,
  images: true,
  thinking: true,
};

describe('priceUsage', () => {
  it('bills each of the four token counts once at its own rate', () => {
    // 10 000 × $3 + 2 000 × $15 + 50 000 × $0.30 + 4 000 × $3.75, per million:
    // 0.03 + 0.03 + 0.015 + 0.015 = 0.09
    const cost = priceUsage(sonnet, { inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 50_000, cacheWriteTokens: 4_000, reasoningTokens: 500 });
    expect(cost.breakdown.input).toBeCloseTo(0.03, 12);
    expect(cost.breakdown.output).toBeCloseTo(0.03, 12);
    expect(cost.breakdown.cacheRead).toBeCloseTo(0.015, 12);
    expect(cost.breakdown.cacheWrite).toBeCloseTo(0.015, 12);
    expect(cost.usd).toBeCloseTo(0.09, 12);
  });

  it('counts reasoning only through the output tokens it is part of', () => {
    const withReasoning = priceUsage(sonnet, { inputTokens: 0, outputTokens: 1_000, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 800 });
    expect(withReasoning.usd).toBeCloseTo(0.015, 12);
  });

  it('falls back to the input price for missing cache prices', () => {
    const gpt: ModelInfo = { ...sonnet, inputPrice: 1.25, outputPrice: 10, cacheReadPrice: undefined, cacheWritePrice: undefined };
    // 1 000 000 cached reads at $1.25 and 200 000 writes at $1.25: 1.25 + 0.25
    const cost = priceUsage(gpt, { inputTokens: 0, outputTokens: 0, cacheReadTokens: 1_000_000, cacheWriteTokens: 200_000, reasoningTokens: 0 });
    expect(cost.breakdown).toEqual({ input: 0, output: 0, cacheRead: 1.25, cacheWrite: 0.25 });
    expect(cost.usd).toBeCloseTo(1.5, 12);
  });

  it('is zero for a model with unknown prices', () => {
    const unknown: ModelInfo = { ...sonnet, inputPrice: 0, outputPrice: 0, cacheReadPrice: undefined, cacheWritePrice: undefined };
    expect(priceUsage(unknown, { inputTokens: 5, outputTokens: 5, cacheReadTokens: 5, cacheWriteTokens: 5, reasoningTokens: 0 }).usd).toBe(0);
  });
});
