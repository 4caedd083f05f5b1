import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

async function storeError(fn: () => Promise<unknown>): Promise<StoreError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

const SHORT_LEASE = 1000;
const LONG_LEASE = 600_000;

function registration(id: string, leaseMs = LONG_LEASE) {
  return { id, host: 'host-a', pid: 1234, roots: ['/srv/work'], concurrency: 8, leaseMs };
}

// Two (or three) store objects on one database stand for daemons sharing it.
describe.each(STORE_IMPLEMENTATIONS)('$name cluster store', (implementation) => {
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
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await database.dispose();
  });

  describe('daemons', () => {
    it('registers daemons, renews their heartbeat and lists each with the sessions it owns', async () => {
      await a.cluster.registerDaemon(registration('dmn_aaaaaaaaaaaaaaaa'));
      await b.cluster.registerDaemon(registration('dmn_bbbbbbbbbbbbbbbb'));
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE);
      await a.cluster.heartbeat('dmn_aaaaaaaaaaaaaaaa', { runningTurns: 2 });
      const daemons = await b.cluster.listDaemons();
      expect(daemons.map((d) => [d.id, d.alive, d.runningTurns, d.sessionsOwned])).toEqual([
        ['dmn_aaaaaaaaaaaaaaaa', true, 2, ['s1']],
        ['dmn_bbbbbbbbbbbbbbbb', true, 0, []],
      ]);
      expect(daemons[0]).toMatchObject({ host: 'host-a', pid: 1234, roots: ['/srv/work'], concurrency: 8, leaseMs: LONG_LEASE });
      expect(daemons[0]!.heartbeatAgeMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(daemons[0]!.heartbeatAt)).toBeGreaterThanOrEqual(Date.parse(daemons[0]!.startedAt));
    });

    it('shows a daemon as gone once it went its lease without a heartbeat, and alive again after one', async () => {
      await a.cluster.registerDaemon(registration('dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE));
      await expect.poll(async () => (await b.cluster.listDaemons())[0]?.alive, { timeout: 10_000, interval: 100 }).toBe(false);
      await a.cluster.heartbeat('dmn_aaaaaaaaaaaaaaaa', { runningTurns: 0 });
      expect((await b.cluster.listDaemons())[0]?.alive).toBe(true);
    });

    it('forgets a daemon at clean shutdown and frees its sessions for the next daemon at once', async () => {
      await a.cluster.registerDaemon(registration('dmn_aaaaaaaaaaaaaaaa'));
      expect(await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual({ epoch: 1 });
      await a.cluster.forgetDaemon('dmn_aaaaaaaaaaaaaaaa');
      expect(await b.cluster.listDaemons()).toEqual([]);
      expect(await b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE)).toEqual({ epoch: 2 });
      const error = await storeError(() => a.cluster.heartbeat('dmn_aaaaaaaaaaaaaaaa', { runningTurns: 0 }));
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('register it again');
    });
    it('forgets a daemon that died only once it went the given time without a heartbeat, interrupting its turns and fencing it', async () => {
      await a.createSession({ id: 's2', cwd: '/srv/work' });
      await a.cluster.registerDaemon(registration('dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE));
      await b.cluster.registerDaemon(registration('dmn_bbbbbbbbbbbbbbbb'));
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE);
      await a.startTurn('s1', 't1');
      await b.cluster.claimSession('s2', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE);
      await b.startTurn('s2', 't2');
      // Alive, or not gone long enough: kept.
      expect(await b.cluster.forgetGoneDaemon('dmn_aaaaaaaaaaaaaaaa', 2 * SHORT_LEASE)).toBe(false);
      expect(await b.cluster.forgetGoneDaemon('dmn_bbbbbbbbbbbbbbbb', 2 * SHORT_LEASE)).toBe(false);
      expect(await b.cluster.forgetGoneDaemon('dmn_cccccccccccccccc', 0)).toBe(false);
      await expect.poll(() => b.cluster.forgetGoneDaemon('dmn_aaaaaaaaaaaaaaaa', 2 * SHORT_LEASE), { timeout: 10_000, interval: 200 }).toBe(true);
      expect((await b.cluster.listDaemons()).map((daemon) => daemon.id)).toEqual(['dmn_bbbbbbbbbbbbbbbb']);
      const [turn] = await b.listTurns('s1');
      expect(turn).toMatchObject({ id: 't1', status: 'interrupted', error: expect.stringContaining('dmn_aaaaaaaaaaaaaaaa stopped renewing its lease') });
      // Its session is free with a new epoch; the dead daemon's writes are fenced; the live daemon's are untouched.
      expect(await b.cluster.leaseOf('s1')).toMatchObject({ owner: null, epoch: 2, live: false });
      expect((await storeError(() => a.updateSession('s1', { title: 'late' }))).code).toBe('fenced');
      expect((await b.listTurns('s2'))[0]!.status).toBe('running');
      expect(await b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE)).toEqual({ epoch: 3 });
      // Forgotten once.
      expect(await b.cluster.forgetGoneDaemon('dmn_aaaaaaaaaaaaaaaa', 0)).toBe(false);
    });
  });

  describe('leases', () => {
    it('gives a live lease to one daemon, tells the other who holds it, and raises the epoch at each new owner', async () => {
      expect(await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual({ epoch: 1 });
      // Claiming again while holding it keeps the epoch (a renewal, not a new owner).
      expect(await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual({ epoch: 1 });
      const refused = await b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE);
      expect(refused).toMatchObject({ heldBy: 'dmn_aaaaaaaaaaaaaaaa' });
      expect(Date.parse((refused as { expiresAt: string }).expiresAt)).toBeGreaterThan(Date.now());
      expect(await b.cluster.leaseOf('s1')).toMatchObject({ owner: 'dmn_aaaaaaaaaaaaaaaa', epoch: 1, live: true });
      await a.cluster.releaseSession('s1', 'dmn_aaaaaaaaaaaaaaaa');
      expect(await b.cluster.leaseOf('s1')).toMatchObject({ owner: null, epoch: 1, live: false });
      expect(await b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE)).toEqual({ epoch: 2 });
      await b.cluster.releaseSession('s1', 'dmn_bbbbbbbbbbbbbbbb');
      expect(await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual({ epoch: 3 });
    });

    it('does not let a daemon release a lease it does not hold', async () => {
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE);
      await b.cluster.releaseSession('s1', 'dmn_bbbbbbbbbbbbbbbb');
      expect(await b.cluster.leaseOf('s1')).toMatchObject({ owner: 'dmn_aaaaaaaaaaaaaaaa', live: true });
    });

    it('gives a free session to exactly one of two daemons claiming it at once', async () => {
      for (let round = 0; round < 5; round++) {
        const claims = await Promise.all([
          a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE),
          b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE),
        ]);
        const won = claims.filter((claim) => 'epoch' in claim);
        expect(won).toEqual([{ epoch: round + 1 }]);
        const winner = 'epoch' in claims[0]! ? a : b;
        await winner.cluster.releaseSession('s1', winner === a ? 'dmn_aaaaaaaaaaaaaaaa' : 'dmn_bbbbbbbbbbbbbbbb');
      }
    });

    it('refuses a claim on a session that does not exist', async () => {
      const error = await storeError(() => a.cluster.claimSession('nope', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE));
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('"nope" does not exist');
    });

    it('renews the leases a daemon holds and pushes their expiry later', async () => {
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE);
      const before = Date.parse((await a.cluster.leaseOf('s1'))!.expiresAt);
      expect(await a.cluster.renewLeases('dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual([]);
      expect(Date.parse((await a.cluster.leaseOf('s1'))!.expiresAt)).toBeGreaterThan(before);
    });

    it('lets another daemon take an expired lease with the next epoch, marking the turn left running interrupted', async () => {
      await a.createSession({ id: 's2', cwd: '/srv/work' });
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE);
      await a.startTurn('s1', 't1');
      await a.startTurn('s2', 'other');
      // Daemon a stops renewing (it died); b's claims are refused until the lease expires.
      await expect
        .poll(async () => b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE), { timeout: 10_000, interval: 100 })
        .toEqual({ epoch: 2 });
      const [turn] = await b.listTurns('s1');
      expect(turn).toMatchObject({ id: 't1', status: 'interrupted' });
      expect(turn!.error).toContain('dmn_aaaaaaaaaaaaaaaa stopped renewing its lease');
      // Only the taken session's turns.
      expect((await b.listTurns('s2'))[0]!.status).toBe('running');
      // The old owner learns at its next renewal that it lost the session, once; its writes stay fenced.
      expect(await a.cluster.renewLeases('dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual(['s1']);
      expect(await a.cluster.renewLeases('dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual([]);
      expect((await storeError(() => a.updateSession('s1', { title: 'late' }))).code).toBe('fenced');
      // Claimed anew (waiting for b to let go), a's writes go through again.
      await b.cluster.releaseSession('s1', 'dmn_bbbbbbbbbbbbbbbb');
      expect(await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE)).toEqual({ epoch: 3 });
      await a.updateSession('s1', { title: 'mine again' });
    });
  });

  describe('start-up recovery', () => {
    it(implementation.name === 'postgres'
      ? "leaves a live daemon's running turn alone and marks only the turns no live lease covers"
      : 'marks every running turn, the data directory lock having stopped the previous daemon, and frees its leases', async () => {
      await a.createSession({ id: 's2', cwd: '/srv/work' });
      await a.cluster.registerDaemon(registration('dmn_aaaaaaaaaaaaaaaa'));
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE);
      await a.startTurn('s1', 'live');
      await a.startTurn('s2', 'orphan');
      // b starts up on the same database.
      const recovered = await b.recoverInterruptedTurns();
      if (implementation.name === 'postgres') {
        expect(recovered.map((turn) => turn.id)).toEqual(['orphan']);
        expect((await b.listTurns('s1'))[0]!.status).toBe('running');
        await a.endTurn('live', 'end_turn');
      } else {
        expect(recovered.map((turn) => turn.id)).toEqual(['live', 'orphan']);
        expect(await b.cluster.leaseOf('s1')).toMatchObject({ owner: null, live: false });
      }
      expect((await b.listTurns('s2'))[0]).toMatchObject({ status: 'interrupted', error: 'agentd stopped while this turn was running' });
    });
  });

  describe('fencing', () => {
    /** Every write method of the store for session s1 (and turn t1 of it). */
    const WRITES: Array<[string, (store: Store) => Promise<unknown>]> = [
      ['appendMessage', (store) => store.appendMessage({ sessionId: 's1', turnId: 't1', role: 'user', content: [{ type: 'text', text: 'late' }] })],
      ['startTurn', (store) => store.startTurn('s1', 't-late')],
      ['endTurn', (store) => store.endTurn('t1', 'end_turn')],
      ['updateSession', (store) => store.updateSession('s1', { title: 'late' })],
      ['addSessionCost', (store) => store.addSessionCost('s1', 1)],
      ['deleteSession', (store) => store.deleteSession('s1')],
    ];

    /** a claims s1 with a short lease and starts t1; b takes the session once a's lease expired. */
    async function aLosesTheSessionToB(): Promise<void> {
      await a.cluster.registerDaemon(registration('dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE));
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', SHORT_LEASE);
      await a.startTurn('s1', 't1');
      await a.appendMessage({ sessionId: 's1', turnId: 't1', role: 'user', content: [{ type: 'text', text: 'hi' }] });
      await expect
        .poll(async () => b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE), { timeout: 10_000, interval: 100 })
        .toEqual({ epoch: 2 });
    }

    it.each(WRITES)('refuses %s from a daemon that lost its lease, naming the new owner', async (_name, write) => {
      await aLosesTheSessionToB();
      const error = await storeError(() => write(a));
      expect(error.code).toBe('fenced');
      expect(error.message).toContain('is now run by daemon dmn_bbbbbbbbbbbbbbbb');
      expect(error.message).toContain('lost its lease');
      // Nothing of it was written: one message, the session untouched.
      expect((await b.listMessages('s1')).map((m) => m.seq)).toEqual([1]);
      expect(await b.getSession('s1')).toMatchObject({ title: null, totalCostUsd: 0 });
      expect((await b.listTurns('s1')).map((t) => t.id)).toEqual(['t1']);
    });

    it.each(WRITES)('still refuses %s from the old owner once the new owner released the session', async (_name, write) => {
      await aLosesTheSessionToB();
      await b.cluster.releaseSession('s1', 'dmn_bbbbbbbbbbbbbbbb');
      const error = await storeError(() => write(a));
      expect(error.code).toBe('fenced');
      expect(error.message).toContain('taken over by another daemon');
    });

    it.each(WRITES)('refuses %s from a daemon without a lease while another holds a live one', async (_name, write) => {
      await a.startTurn('s1', 't1');
      await b.cluster.registerDaemon(registration('dmn_bbbbbbbbbbbbbbbb'));
      await b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE);
      const error = await storeError(() => write(a));
      expect(error.code).toBe('fenced');
      expect(error.message).toContain('is run by daemon dmn_bbbbbbbbbbbbbbbb, which holds its lease');
      // The holder writes as before.
      await b.appendMessage({ sessionId: 's1', turnId: 't1', role: 'user', content: [{ type: 'text', text: 'mine' }] });
    });

    it.each(WRITES)('lets %s through for an idle session whose lease was released', async (_name, write) => {
      await a.startTurn('s1', 't1');
      await b.cluster.claimSession('s1', 'dmn_bbbbbbbbbbbbbbbb', LONG_LEASE);
      await b.cluster.releaseSession('s1', 'dmn_bbbbbbbbbbbbbbbb');
      await write(a);
    });

    it('lets the holder write and tells a missing session from a fenced one', async () => {
      await a.cluster.claimSession('s1', 'dmn_aaaaaaaaaaaaaaaa', LONG_LEASE);
      await a.startTurn('s1', 't1');
      await a.appendMessage({ sessionId: 's1', turnId: 't1', role: 'user', content: [{ type: 'text', text: 'hi' }] });
      await a.updateSession('s1', { title: 'mine' });
      await a.addSessionCost('s1', 0.5);
      await a.endTurn('t1', 'end_turn');
      expect((await storeError(() => a.appendMessage({ sessionId: 'nope', turnId: 't', role: 'user', content: [] }))).code).toBe('not_found');
      expect((await storeError(() => a.updateSession('nope', { title: 'x' }))).code).toBe('not_found');
      expect(await a.deleteSession('nope')).toBe(false);
      expect(await a.deleteSession('s1')).toBe(true);
    });
  });
});
