import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltDaemonContext } from '../../src/daemon/create-daemon-context.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { startDaemonsOnOneDatabase } from '../support/daemons-on-one-database.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon } from '../support/in-process-daemon.js';
import { POSTGRES } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

/**
 * The daemon's own wiring of schedule recovery: a daemon starting on a shared PostgreSQL
 * store ends the unfinished runs of daemons that are gone (or recorded none), and leaves
 * those of a daemon that is alive, which go on there.
 */
describe.skipIf(!requireProgram(POSTGRES))('scheduled runs of daemons sharing a store, at start-up', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a starting daemon fails only the runs of gone daemons, never a live one\'s', async () => {
    const { url, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 1);
    const live = (await daemons[0]!.context()) as BuiltDaemonContext;
    const store = await openPostgresStore(url);
    cleanups.push(() => store.close());
    const runs = store.schedules;
    await runs.startRun({ id: 'run_live', scheduleId: 'sch_a', sessionId: null, trigger: 'manual', daemonId: live.cluster.daemonId });
    await runs.startRun({ id: 'run_gone', scheduleId: 'sch_a', sessionId: null, trigger: 'manual', daemonId: 'dmn_0000000000000000' });
    await runs.startRun({ id: 'run_unowned', scheduleId: 'sch_b', sessionId: null, trigger: 'manual' });

    const home = makeHome({ store: { type: 'postgres', url } });
    cleanups.push(() => home.cleanup());
    const second = startInProcessDaemon(daemonEnv(home.home), workspace);
    cleanups.push(() => second.close());
    await second.context();

    const ended = async (scheduleId: string) => (await runs.listRuns(scheduleId, {})).runs.map((run) => [run.id, run.outcome]);
    expect(Object.fromEntries([...(await ended('sch_a')), ...(await ended('sch_b'))])).toEqual({ run_live: null, run_gone: 'failed', run_unowned: 'failed' });
  });
});
