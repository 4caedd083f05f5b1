import { describe, expect, it } from 'vitest';
import { compactionThresholds } from '../../src/loop/compaction-thresholds.js';

describe('compactionThresholds', () => {
  it('warns at 80% and compacts at 90% of the window minus the output reserve', () => {
    // 128k window, 16k output: usable 112k.
    expect(compactionThresholds(128_000, 16_000)).toEqual({ warnAt: 89_600, compactAt: 100_800 });
    // The unknown-model defaults: 32 768 − 4 096 = 28 672 usable.
    expect(compactionThresholds(32_768, 4_096)).toEqual({ warnAt: 22_937, compactAt: 25_804 });
  });

  it('caps the reserve at a quarter of the window when the output cap is most of it', () => {
    expect(compactionThresholds(100_000, 100_000)).toEqual({ warnAt: 60_000, compactAt: 67_500 });
  });

  it('rejects nonsense with a message naming the argument', () => {
    expect(() => compactionThresholds(0, 1_000)).toThrow('contextWindow must be a positive number of tokens, got 0');
    expect(() => compactionThresholds(1_000, Number.NaN)).toThrow('maxOutputTokens');
  });
});
