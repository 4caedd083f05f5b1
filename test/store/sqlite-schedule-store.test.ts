import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

// Every test runs on each implementation of Store, on a fresh empty database.
describe.each(STORE_IMPLEMENTATIONS)('$name store', (implementation) => {
  if (!implementation.available()) return;
  let database: StoreDatabase;
  let store: Store;
  /** Frozen unless a test moves it: runs started in the same millisecond must keep their order. */
  let now: Date;

  beforeEach(async () => {
    database = await implementation.create();
    now = new Date('2026-01-01T00:00:00.000Z');
    store = await database.open({ now: () => now });
  });
  afterEach(async () => {
    await store.close();
    await database.dispose();
  });

  describe('ScheduleStore', () => {
    it('saves, replaces, lists by name and deletes schedules; a taken name is a conflict', async () => {
      const { schedules } = store;
      await schedules.saveSchedule({ id: 'sch_b', name: 'b', definition: { cron: '0 9 * * *' } });
      await schedules.saveSchedule({ id: 'sch_a', name: 'a', definition: { cron: '0 8 * * *' } });
      now = new Date('2026-01-02T00:00:00.000Z');
      const replaced = await schedules.saveSchedule({ id: 'sch_b', name: 'b2', definition: { cron: '0 10 * * *' } });
      expect(replaced).toEqual({ id: 'sch_b', name: 'b2', definition: { cron: '0 10 * * *' }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' });
      expect((await schedules.listSchedules()).map((s) => s.id)).toEqual(['sch_a', 'sch_b']);
      const taken = await (async () => {
        try {
          await schedules.saveSchedule({ id: 'sch_c', name: 'a', definition: {} });
        } catch (error) {
          return error;
        }
      })();
      expect(taken).toBeInstanceOf(StoreError);
      expect(taken).toMatchObject({ code: 'conflict', message: 'a schedule named "a" already exists; choose another name' });
      expect(await schedules.deleteSchedule('sch_a')).toBe(true);
      expect(await schedules.deleteSchedule('sch_a')).toBe(false);
    });

    it('records runs, ends each once, pages newest first (insertion order within one millisecond), and survives reopening', async () => {
      const { schedules } = store;
      for (const id of ['r1', 'r2', 'r3']) await schedules.startRun({ id, scheduleId: 'sch_x', sessionId: null, trigger: 'cron' });
      await schedules.startRun({ id: 'other', scheduleId: 'sch_y', sessionId: 's', trigger: 'manual' });
      const ended = await schedules.finishRun('r1', { outcome: 'completed', stopReason: 'end_turn', costUsd: 0.25 });
      expect(ended).toMatchObject({ outcome: 'completed', stopReason: 'end_turn', costUsd: 0.25, error: null, endedAt: now.toISOString() });
      await expect(async () => await schedules.finishRun('r1', { outcome: 'failed' })).rejects.toThrow('schedule run "r1" does not exist or has already ended');

      const first = await schedules.listRuns('sch_x', { limit: 2 });
      expect(first.runs.map((r) => r.id)).toEqual(['r3', 'r2']);
      const second = await schedules.listRuns('sch_x', { limit: 2, cursor: first.nextCursor! });
      expect(second).toMatchObject({ runs: [expect.objectContaining({ id: 'r1' })], nextCursor: null });
      expect((await schedules.lastRun('sch_x'))?.id).toBe('r3');
      await expect(async () => await schedules.listRuns('sch_x', { cursor: 'bad' })).rejects.toThrow(/invalid schedule history cursor "bad"/);

      await store.close();
      store = await database.open({ now: () => now });
      const recovered = await store.schedules.recoverUnfinishedRuns();
      expect(recovered.map((r) => r.id).sort()).toEqual(['other', 'r2', 'r3']);
      expect(recovered[0]).toMatchObject({ outcome: 'failed', error: 'agentd stopped while this run was going (the daemon was killed or crashed)' });
      expect(await store.schedules.recoverUnfinishedRuns()).toEqual([]);
    });
  });
});
