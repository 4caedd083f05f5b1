import { describe, expect, it } from 'vitest';
import { LeaseFence } from '../../src/store/lease-fence.js';

describe('LeaseFence: which claimed leases a renewal lost', () => {
  it('reports a lease held since before the renewal and not renewed with its epoch, once', () => {
    const fence = new LeaseFence();
    fence.held('s1', 3);
    fence.held('s2', 1);
    const before = fence.claimed();
    expect(fence.newlyLost(new Map([['s2', 1]]), before)).toEqual(['s1']);
    // Taken over with a new epoch: still lost, not reported twice.
    expect(fence.newlyLost(new Map([['s2', 1]]), fence.claimed())).toEqual([]);
    expect(fence.newlyLost(new Map([['s1', 4]]), fence.claimed())).toEqual(['s2']);
  });

  it('does not report a claim that committed while the renewal ran, nor a lease released and claimed again meanwhile', () => {
    const fence = new LeaseFence();
    fence.held('old', 1);
    const before = fence.claimed();
    // During the renewal: a new session claimed, and 'old' released and claimed again with a new epoch;
    // the renewal's UPDATE saw neither.
    fence.held('new', 1);
    fence.released('old');
    fence.held('old', 2);
    expect(fence.newlyLost(new Map(), before)).toEqual([]);
    // The next renewal, which sees them, renews both.
    expect(fence.newlyLost(new Map([['new', 1], ['old', 2]]), fence.claimed())).toEqual([]);
  });
});
