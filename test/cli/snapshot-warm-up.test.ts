import { describe, expect, it } from 'vitest';
import { warmUpForSnapshot } from '../../src/cli/snapshot-warm-up.js';

describe('the warm-up run while the start-up snapshot is built', () => {
  it('parses only valid samples, so that it warms the paths a start takes and not the error paths', () => {
    expect(warmUpForSnapshot()).toBe(true);
  });
});
