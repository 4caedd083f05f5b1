import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewPendingPrompt } from '../../src/store/pending-prompt-store.js';
import type { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

const A = 'dmn_aaaaaaaaaaaaaaaa';
const B = 'dmn_bbbbbbbbbbbbbbbb';
const C = 'dmn_cccccccccccccccc';
const LONG_LEASE = 600_000;

function registration(id: string, leaseMs = LONG_LEASE) {
  return { id, host: 'host', pid: 1, roots: [], concurrency: 8, leaseMs };
}

function prompt(id: string, queue: NewPendingPrompt['queue'] = 'followUp', sessionId = 's1'): NewPendingPrompt {
  return { id, sessionId, queue, content: [{ type: 'text', text: `prompt ${id}` }], origin: 'conn-1' };
}

async function storeError(fn: () => Promise<unknown>): Promise<StoreError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

/** Waits until the database counts the daemon gone (its heartbeat older than its 1 ms lease). */
async function untilGone(store: Store, daemonId: string): Promise<void> {
  while ((await store.cluster.listDaemons()).some((daemon) => daemon.id === daemonId && daemon.alive)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// Store objects on one database stand for daemons sharing it (see cluster-store.test.ts).
describe.each(STORE_IMPLEMENTATIONS)('$name pending prompts', (implementation) => {
  if (!implementation.available()) return;
  let database: StoreDatabase;
  let a: Store;
  let b: Store;
  const opened: Store[] = [];

  async function open(): Promise<Store> {
    const store = await database.open();
    opened.push(store);
    return store;
  }

  beforeEach(async () => {
    database = await implementation.create();
    a = await open();
    b = await open();
    await a.createSession({ id: 's1', cwd: '/srv/work' });
    await a.createSession({ id: 's2', cwd: '/srv/work' });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await database.dispose();
  });

  it('keeps each prompt with the daemon that queued it, lists a session’s in the order queued and removes them', async () => {
    await a.cluster.registerDaemon(registration(A));
    await a.pendingPrompts.add(prompt('p1', 'followUp'));
    await a.pendingPrompts.add(prompt('p2', 'steering'));
    await a.pendingPrompts.add(prompt('other', 'followUp', 's2'));
    const listed = await b.pendingPrompts.list('s1');
    expect(listed.map((p) => [p.id, p.queue, p.daemonId, p.claimedBy, p.origin])).toEqual([
      ['p1', 'followUp', A, null, 'conn-1'],
      ['p2', 'steering', A, null, 'conn-1'],
    ]);
    expect(listed[0]!.content).toEqual([{ type: 'text', text: 'prompt p1' }]);
    expect(listed[0]!.order).toBeLessThan(listed[1]!.order);
    expect(await a.pendingPrompts.remove(['p1', 'unknown'])).toBe(1);
    expect((await a.pendingPrompts.list('s1')).map((p) => p.id)).toEqual(['p2']);
    expect(await a.pendingPrompts.remove([])).toBe(0);
    // They go with their session.
    await a.deleteSession('s1');
    expect(await database.countRows('pending_prompts')).toBe(1);
  });

  it('refuses a prompt for an unknown session, a taken id, bad input and a store whose daemon never registered', async () => {
    const unregistered = await storeError(() => a.pendingPrompts.add(prompt('p1')));
    expect(unregistered.code).toBe('invalid_argument');
    expect(unregistered.message).toContain('register the daemon');
    await a.cluster.registerDaemon(registration(A));
    const unknown = await storeError(() => a.pendingPrompts.add(prompt('p1', 'followUp', 'nope')));
    expect([unknown.code, unknown.message]).toEqual(['not_found', expect.stringContaining('"nope" does not exist')]);
    await a.pendingPrompts.add(prompt('p1'));
    expect((await storeError(() => a.pendingPrompts.add(prompt('p1')))).code).toBe('conflict');
    expect((await storeError(() => a.pendingPrompts.add({ ...prompt('p3'), queue: 'later' as never }))).message).toContain('"steering" or "followUp"');
    expect((await storeError(() => a.pendingPrompts.add({ ...prompt('p4'), content: 'text' as never }))).message).toContain('array of content blocks');
    expect((await storeError(() => a.pendingPrompts.add({ ...prompt('p5'), id: '' }))).code).toBe('invalid_argument');
    expect((await a.pendingPrompts.list('s1')).map((p) => p.id)).toEqual(['p1']);
  });

  it('is a fenced session write: refused while another daemon holds the lease, and after this daemon lost it', async () => {
    await a.cluster.registerDaemon(registration(A));
    await b.cluster.registerDaemon(registration(B));
    await b.cluster.claimSession('s1', B, LONG_LEASE);
    const held = await storeError(() => a.pendingPrompts.add(prompt('p1')));
    expect([held.code, held.message]).toEqual(['fenced', expect.stringContaining(`run by daemon ${B}`)]);
    await b.pendingPrompts.add(prompt('p2'));
    // A took the lease once, then B took it from A after A's lease expired.
    await b.cluster.releaseSession('s1', B);
    await a.cluster.claimSession('s1', A, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await b.cluster.claimSession('s1', B, LONG_LEASE);
    expect((await storeError(() => a.pendingPrompts.add(prompt('p3')))).code).toBe('fenced');
    expect((await a.pendingPrompts.list('s1')).map((p) => p.id)).toEqual(['p2']);
  });

  it('removes a prompt in the transaction that appends the message delivering it, once', async () => {
    await a.cluster.registerDaemon(registration(A));
    await a.startTurn('s1', 't1');
    await a.pendingPrompts.add(prompt('p1'));
    const message = { sessionId: 's1', turnId: 't1', role: 'user' as const, content: [{ type: 'text', text: 'prompt p1' }], pendingPromptId: 'p1' };
    await a.appendMessage(message);
    expect(await a.pendingPrompts.list('s1')).toEqual([]);
    const again = await storeError(() => a.appendMessage(message));
    expect([again.code, again.message]).toEqual(['conflict', expect.stringContaining('"p1" is no longer pending')]);
    expect((await a.listMessages('s1')).length).toBe(1);
  });

  it('keeps the prompt when the append delivering it is fenced', async () => {
    await a.cluster.registerDaemon(registration(A));
    await b.cluster.registerDaemon(registration(B));
    await a.pendingPrompts.add(prompt('p1'));
    await b.cluster.claimSession('s1', B, LONG_LEASE);
    const fenced = await storeError(() => a.appendMessage({ sessionId: 's1', turnId: 't1', role: 'user', content: [], pendingPromptId: 'p1' }));
    expect(fenced.code).toBe('fenced');
    expect((await a.pendingPrompts.list('s1')).map((p) => p.id)).toEqual(['p1']);
    expect(await a.listMessages('s1')).toEqual([]);
  });

  it('lets one live daemon claim, in the order queued, what a gone daemon left; never a live daemon’s', async () => {
    const c = await open();
    await a.cluster.registerDaemon(registration(A, 1));
    await b.cluster.registerDaemon(registration(B));
    await c.cluster.registerDaemon(registration(C));
    await a.pendingPrompts.add(prompt('p1', 'followUp'));
    await a.pendingPrompts.add(prompt('p2', 'steering', 's2'));
    await a.pendingPrompts.add(prompt('p3', 'followUp'));
    await b.pendingPrompts.add(prompt('mine'));
    // A's heartbeat is older than its lease: it is gone. B's own prompt is never an orphan.
    await untilGone(b, A);
    const [first, second] = await Promise.all([b.pendingPrompts.claimOrphans(B), c.pendingPrompts.claimOrphans(C)]);
    const winner = first.length > 0 ? first : second;
    expect([first.length, second.length].sort()).toEqual([0, 3]);
    expect(winner.map((p) => p.id)).toEqual(['p1', 'p2', 'p3']);
    const claimer = winner === first ? B : C;
    expect(winner.every((p) => p.claimedBy === claimer && p.daemonId === A)).toBe(true);
    // Claimed by a live daemon: nobody else takes it, and its old owner can no longer deliver it.
    expect(await (claimer === B ? c : b).pendingPrompts.claimOrphans(claimer === B ? C : B)).toEqual([]);
    await a.startTurn('s1', 't1').catch(() => undefined);
    const late = await storeError(() => a.appendMessage({ sessionId: 's1', turnId: 't1', role: 'user', content: [], pendingPromptId: 'p1' }));
    expect(late.code).toBe('conflict');
    // Given back (queueing failed), it is claimed again.
    const claimerStore = claimer === B ? b : c;
    await claimerStore.pendingPrompts.giveBack(['p3'], claimer);
    expect((await b.pendingPrompts.list('s1')).find((p) => p.id === 'p3')!.claimedBy).toBeNull();
    expect((await claimerStore.pendingPrompts.claimOrphans(claimer)).map((p) => p.id)).toEqual(['p1', 'p2', 'p3']);
  });

  it('lets another daemon claim what a claimer that is gone held, and not what a gone daemon holds a live session lease for', async () => {
    await a.cluster.registerDaemon(registration(A, 1));
    await b.cluster.registerDaemon(registration(B, 1));
    const c = await open();
    await c.cluster.registerDaemon(registration(C));
    // A holds s2's lease for long: its prompts for s2 wait for that lease.
    await a.cluster.claimSession('s2', A, LONG_LEASE);
    await a.pendingPrompts.add(prompt('p1'));
    await a.pendingPrompts.add(prompt('p2', 'followUp', 's2'));
    await untilGone(c, A);
    expect((await b.pendingPrompts.claimOrphans(B)).map((p) => p.id)).toEqual(['p1']);
    await untilGone(c, B);
    expect((await c.pendingPrompts.claimOrphans(C)).map((p) => [p.id, p.claimedBy])).toEqual([['p1', C]]);
  });

  it('counts a daemon that left the registry as gone', async () => {
    await a.cluster.registerDaemon(registration(A));
    await b.cluster.registerDaemon(registration(B));
    await a.pendingPrompts.add(prompt('p1'));
    expect(await b.pendingPrompts.claimOrphans(B)).toEqual([]);
    await a.cluster.forgetDaemon(A);
    expect((await b.pendingPrompts.claimOrphans(B)).map((p) => p.id)).toEqual(['p1']);
  });
});
