import { describe, expect, it } from 'vitest';
import { OneSessionAtATime } from '../../../src/tools/mcp/one-session-at-a-time.js';

const never = new AbortController().signal;
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('OneSessionAtATime', () => {
  it('lets calls of one session run side by side and holds another session\'s until they end', async () => {
    const turns = new OneSessionAtATime();
    await turns.enter('a', never);
    await turns.enter('a', never);
    const b = turns.enter('b', never);
    expect(await settled(b)).toBe(false);
    turns.leave();
    expect(await settled(b)).toBe(false);
    turns.leave();
    expect(await settled(b)).toBe(true);
  });

  it('is fair: a session holding the server cannot overtake another that waits, and the waiting session\'s calls go in together', async () => {
    const turns = new OneSessionAtATime();
    await turns.enter('a', never);
    const b1 = turns.enter('b', never);
    const a2 = turns.enter('a', never);
    const b2 = turns.enter('b', never);
    turns.leave();
    expect([await settled(b1), await settled(b2), await settled(a2)]).toEqual([true, true, false]);
    turns.leave();
    turns.leave();
    expect(await settled(a2)).toBe(true);
  });

  it('drops a waiting call whose turn is cancelled, and the next session goes on', async () => {
    const turns = new OneSessionAtATime();
    await turns.enter('a', never);
    const cancel = new AbortController();
    const b = turns.enter('b', cancel.signal);
    const c = turns.enter('c', never);
    cancel.abort(new Error('cancelled'));
    await expect(b).rejects.toThrow('cancelled');
    turns.leave();
    expect(await settled(c)).toBe(true);
  });
});
