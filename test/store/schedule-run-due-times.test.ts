import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

const DUE = '2026-01-01T09:00:00.000Z';

// Daemons sharing a store each fire a schedule's timer; the database keeps one run per due time.
describe.each(STORE_IMPLEMENTATIONS)('$name store: one run per schedule and due time', (implementation) => {
  if (!implementation.available()) return;
  let database: StoreDatabase;
  let store: Store;
  /** A second connection to the same database, as another daemon's store would be. */
  let other: Store;

  beforeEach(async () => {
    database = await implementation.create();
    store = await database.open();
    other = await database.open();
  });
  afterEach(async () => {
    await other.close();
    await store.close();
    await database.dispose();
  });

  it('a second run of the same due time is taken, writes nothing and names the first; manual runs and other times are never deduplicated', async () => {
    const first = await store.schedules.startRun({ id: 'run_a', scheduleId: 'sch_x', sessionId: null, trigger: 'cron', dueAt: DUE });
    expect(first).toEqual({ status: 'started', run: expect.objectContaining({ id: 'run_a', dueAt: DUE, endedAt: null }) });
    // The other daemon's catch-up of the same time (trigger missed) is the same key.
    const second = await other.schedules.startRun({ id: 'run_b', scheduleId: 'sch_x', sessionId: null, trigger: 'missed', dueAt: DUE });
    expect(second).toEqual({ status: 'taken', run: expect.objectContaining({ id: 'run_a', trigger: 'cron', dueAt: DUE }) });

    const started = async (run: Parameters<Store['schedules']['startRun']>[0]): Promise<string> => (await store.schedules.startRun(run)).status;
    expect(await started({ id: 'run_c', scheduleId: 'sch_x', sessionId: null, trigger: 'cron', dueAt: '2026-01-01T09:01:00.000Z' })).toBe('started');
    expect(await started({ id: 'run_d', scheduleId: 'sch_y', sessionId: null, trigger: 'cron', dueAt: DUE })).toBe('started');
    expect(await started({ id: 'run_e', scheduleId: 'sch_x', sessionId: null, trigger: 'manual' })).toBe('started');
    expect(await started({ id: 'run_f', scheduleId: 'sch_x', sessionId: null, trigger: 'manual' })).toBe('started');
    // Only the due time is passed over: a run id used twice is still an error.
    await expect(async () => await store.schedules.startRun({ id: 'run_a', scheduleId: 'sch_z', sessionId: null, trigger: 'cron', dueAt: DUE })).rejects.toThrow();

    const rows = await database.sql("SELECT id FROM schedule_runs WHERE schedule_id = 'sch_x' ORDER BY id");
    expect(rows.map((row) => row.id)).toEqual(['run_a', 'run_c', 'run_e', 'run_f']);
    const manual = await store.schedules.listRuns('sch_x', {});
    expect(manual.runs.filter((run) => run.trigger === 'manual').map((run) => run.dueAt)).toEqual([null, null]);
  });

  it('of two stores inserting the same due time at once, exactly one starts the run', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).schedules.startRun({ id: `run_${i}`, scheduleId: 'sch_x', sessionId: null, trigger: 'cron', dueAt: DUE })),
    );
    const winners = outcomes.filter((outcome) => outcome.status === 'started');
    expect(winners).toHaveLength(1);
    // Every loser names the winner's run.
    expect(new Set(outcomes.map((outcome) => outcome.run.id))).toEqual(new Set([winners[0]!.run.id]));
    expect(await database.countRows('schedule_runs')).toBe(1);
  });

  it('records the session of a run recorded before it, and refuses an unknown run', async () => {
    await store.schedules.startRun({ id: 'run_a', scheduleId: 'sch_x', sessionId: null, trigger: 'cron', dueAt: DUE });
    expect(await store.schedules.setRunSession('run_a', 'ses_1')).toMatchObject({ id: 'run_a', sessionId: 'ses_1', dueAt: DUE });
    expect((await other.schedules.lastRun('sch_x'))?.sessionId).toBe('ses_1');
    await expect(async () => await store.schedules.setRunSession('run_gone', 'ses_1')).rejects.toMatchObject({ code: 'not_found', message: 'schedule run "run_gone" does not exist' });
  });

  it('records the daemon running each run; recovery ends only the unfinished runs the check calls abandoned, and the others stay for their daemon', async () => {
    await store.schedules.startRun({ id: 'run_dead', scheduleId: 'sch_x', sessionId: 'ses_dead', trigger: 'cron', dueAt: DUE, daemonId: 'dmn_dead' });
    const live = await store.schedules.startRun({ id: 'run_live', scheduleId: 'sch_y', sessionId: null, trigger: 'manual', daemonId: 'dmn_live' });
    expect(live.run).toMatchObject({ daemonId: 'dmn_live', dueAt: null });
    await store.schedules.startRun({ id: 'run_done', scheduleId: 'sch_y', sessionId: 'ses_done', trigger: 'manual', daemonId: 'dmn_dead' });
    await store.schedules.finishRun('run_done', { outcome: 'completed' });
    const asked: string[] = [];
    // What a daemon sharing the store asks: is the run's daemon still alive?
    const recovered = await other.schedules.recoverUnfinishedRuns(async (run) => {
      asked.push(run.id);
      return run.daemonId !== 'dmn_live';
    });
    expect(asked.sort()).toEqual(['run_dead', 'run_live']);
    expect(recovered).toEqual([expect.objectContaining({ id: 'run_dead', daemonId: 'dmn_dead', outcome: 'failed', error: expect.stringContaining('agentd stopped while this run was going') })]);
    // The live daemon goes on with its run and records its end as it would have.
    await store.schedules.setRunSession('run_live', 'ses_live');
    expect(await store.schedules.finishRun('run_live', { outcome: 'completed', stopReason: 'end_turn' })).toMatchObject({ outcome: 'completed', sessionId: 'ses_live' });
    // Without a check every unfinished run counts as abandoned (one daemon per store); a row may name no daemon.
    await store.schedules.startRun({ id: 'run_left', scheduleId: 'sch_y', sessionId: null, trigger: 'manual' });
    expect(await other.schedules.recoverUnfinishedRuns()).toEqual([expect.objectContaining({ id: 'run_left', daemonId: null })]);
  });
});
