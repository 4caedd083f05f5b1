import { describe, expect, it } from 'vitest';
import { TurnSlots } from '../../src/session/turn-slots.js';

describe('TurnSlots', () => {
  it('grants up to its limit, then makes callers wait in arrival order; a release hands the slot straight on', async () => {
    const slots = new TurnSlots(2);
    const first = slots.tryAcquire()!;
    const second = await slots.acquire();
    expect(slots.tryAcquire()).toBeUndefined();
    const order: string[] = [];
    const third = slots.acquire().then((release) => (order.push('third'), release));
    const fourth = slots.acquire().then((release) => (order.push('fourth'), release));
    expect(slots.free).toBe(0);
    first();
    // Handed to the first waiter: nobody else (a queue's tryAcquire) slips in between.
    expect(slots.tryAcquire()).toBeUndefined();
    const thirdRelease = await third;
    expect(order).toEqual(['third']);
    second();
    (await fourth)();
    thirdRelease();
    expect(order).toEqual(['third', 'fourth']);
    expect([slots.running, slots.free]).toEqual([0, 2]);
  });

  it('gives a slot back once however often it is released, and tells listeners when one comes free', () => {
    const slots = new TurnSlots(1);
    let told = 0;
    const stop = slots.onFree(() => told++);
    const release = slots.tryAcquire()!;
    release();
    release();
    expect([slots.running, told]).toEqual([0, 1]);
    stop();
    slots.tryAcquire()!();
    expect(told).toBe(1);
  });

  it('drops a waiter whose signal aborts, rejecting with its reason, and counts the slot free again', async () => {
    const slots = new TurnSlots(1);
    const held = slots.tryAcquire()!;
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    expect(slots.free).toBe(0);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    held();
    expect(slots.tryAcquire()).toBeDefined();
    await expect(slots.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('refuses a limit that is not a whole number of turns, naming the setting', () => {
    expect(() => new TurnSlots(0)).toThrow('cluster.concurrency must be a whole number of turns, at least 1 (got 0)');
    expect(() => new TurnSlots(1.5)).toThrow('cluster.concurrency');
  });
});
