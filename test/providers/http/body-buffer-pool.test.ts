import { beforeEach, describe, expect, it } from 'vitest';
import { giveBackBodyBuffer, takeBodyBuffer } from '../../../src/providers/http/body-buffer-pool.js';

const large = 200_000;

describe('body buffer pool', () => {
  // Takes whatever memory is kept (other test files' requests share the module): each test starts with none.
  beforeEach(() => void takeBodyBuffer(32 * 1024 * 1024));

  it('hands a large body memory given back to the next body that fits, and to that one only', () => {
    const first = takeBodyBuffer(large);
    expect(first.length).toBe(large);
    // Not given back yet: the next body gets memory of its own.
    const second = takeBodyBuffer(large);
    expect(second.buffer).not.toBe(first.buffer);
    giveBackBodyBuffer(first);
    const reused = takeBodyBuffer(large - 1_000);
    expect(reused.buffer).toBe(first.buffer);
    expect(reused.length).toBe(large - 1_000);
    // Taken: nobody else gets it until it is given back again.
    expect(takeBodyBuffer(large).buffer).not.toBe(first.buffer);
    giveBackBodyBuffer(reused);
    // A body larger than the kept memory gets new memory, and the kept one stays for later.
    expect(takeBodyBuffer(large + 1).buffer).not.toBe(first.buffer);
    expect(takeBodyBuffer(large).buffer).toBe(first.buffer);
  });

  it('keeps the largest memory given back, one buffer only', () => {
    const small = takeBodyBuffer(100_000);
    const big = takeBodyBuffer(300_000);
    giveBackBodyBuffer(big);
    giveBackBodyBuffer(small);
    expect(takeBodyBuffer(100_000).buffer).toBe(big.buffer);
    expect(takeBodyBuffer(100_000).buffer).not.toBe(small.buffer);
  });

  it('never takes back memory it did not hand out, nor a huge body', () => {
    const foreign = Buffer.allocUnsafeSlow(large);
    giveBackBodyBuffer(foreign);
    expect(takeBodyBuffer(large).buffer).not.toBe(foreign.buffer);
    const huge = takeBodyBuffer(33 * 1024 * 1024);
    giveBackBodyBuffer(huge);
    expect(takeBodyBuffer(33 * 1024 * 1024).buffer).not.toBe(huge.buffer);
  });
});
