import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../protocol/index.js';
import { ScheduleConfigSchema } from '../../src/config/config-schema.js';
import { createDaemonId } from '../../src/daemon/cluster/daemon-identity.js';
import { createRunPrompt } from '../../src/daemon/create-run-prompt.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import type { IsRunAbandoned, ScheduleStore } from '../../src/store/schedule-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** One daemon's scheduler, built on that daemon's own sessions and store, and what it said. */
interface DaemonScheduler {
  name: string;
  daemonId: string;
  scheduler: Scheduler;
  events: DaemonEvent[];
  logs: string[];
  debug: string[];
  /** Run ids this scheduler started a session for. */
  started(): string[];
}

/*
 * Two daemons (in process, each with its own home) on one PostgreSQL database, each with
 * its own scheduler timers on the same schedule: the database decides which of them runs
 * each due time, and the other writes nothing and makes no session.
 */
describe.skipIf(!requireProgram(POSTGRES))('a schedule shared by two daemons on one PostgreSQL store', () => {
  let replay: ReplayServer;
  let workspace: string;
  const daemons: InProcessDaemon[] = [];
  const schedulers: Scheduler[] = [];
  const cleanups: Array<() => void> = [];

  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));
    await Promise.all(daemons.splice(0).map((daemon) => daemon.close()));
    await replay.close();
    for (const cleanup of cleanups.splice(0)) cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  interface SchedulerSetUp {
    wrapStore?: (store: ScheduleStore) => ScheduleStore;
    isRunAbandoned?: IsRunAbandoned;
  }

  async function startDaemon(name: string, url: string, setUp: SchedulerSetUp): Promise<DaemonScheduler> {
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    cleanups.push(home.cleanup);
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), process.cwd());
    daemons.push(daemon);
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const context = await daemon.context();
    const events: DaemonEvent[] = [];
    const logs: string[] = [];
    const debug: string[] = [];
    const daemonId = createDaemonId();
    const scheduler = new Scheduler({
      store: setUp.wrapStore ? setUp.wrapStore(context.sessions.store.schedules) : context.sessions.store.schedules,
      daemonId,
      ...(setUp.isRunAbandoned ? { isRunAbandoned: setUp.isRunAbandoned } : {}),
      runPrompt: createRunPrompt(context.sessions, context.clients, new Set()),
      emit: (event) => void events.push(event),
      log: (line) => void logs.push(line),
      debug: (line) => void debug.push(line),
    });
    schedulers.push(scheduler);
    const started = (): string[] => events.flatMap((event) => (event.type === 'schedule_run_started' ? [event.runId] : []));
    return { name, daemonId, scheduler, events, logs, debug, started };
  }

  /** The run id a debug line says the other daemon recorded. */
  const takenRunIds = (daemon: DaemonScheduler): string[] => daemon.debug.map((line) => /is run (run_\S+), recorded by another daemon/.exec(line)![1]!);

  /** Two daemons on a fresh database; `b` may be set up apart from `a`. */
  async function setUp(both: SchedulerSetUp = {}, onlyB: (a: DaemonScheduler) => SchedulerSetUp = () => ({})): Promise<{ url: string; a: DaemonScheduler; b: DaemonScheduler }> {
    replay = await startReplayServer({ respond: () => ({ body: chatCompletionSse(['done']) }) });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    const url = await createTestDatabase();
    const a = await startDaemon('a', url, both);
    return { url, a, b: await startDaemon('b', url, { ...both, ...onlyB(a) }) };
  }

  it('a one-second cron fires on both daemons; each due time runs once, with one session, and the other daemon skips it quietly', async () => {
    const { url, a, b } = await setUp();
    const tick = ScheduleConfigSchema.parse({ name: 'tick', cron: '* * * * * *', prompt: 'say hello', cwd: workspace });
    await Promise.all([a.scheduler.start([tick]), b.scheduler.start([tick])]);
    // Both timers fire every second: wait until each daemon has lost a due time to the other.
    await until(() => a.debug.length > 0 && b.debug.length > 0, 20_000, 'each daemon to find a due time taken by the other');
    await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));

    // What one skipped, the other started: a session of its own for that run.
    for (const [loser, winner] of [[a, b], [b, a]] as const) {
      for (const runId of takenRunIds(loser)) expect(winner.started(), `${runId} skipped by ${loser.name}`).toContain(runId);
      expect(loser.logs, `${loser.name} logged only what is worth a line`).toEqual([]);
    }
    const store = await openPostgresStore(url);
    try {
      const { runs } = await store.schedules.listRuns('tick', { limit: 200 });
      // One row per due time, every one a cron run with its due time.
      expect(runs.every((run) => run.trigger === 'cron' && run.dueAt !== null)).toBe(true);
      expect(new Set(runs.map((run) => run.dueAt)).size).toBe(runs.length);
      // The due time is the cron's whole second, not when a timer woke: the same on every daemon.
      for (const run of runs) expect(run.dueAt! <= run.startedAt && run.dueAt!.endsWith('.000Z'), `${run.dueAt} then ${run.startedAt}`).toBe(true);
      // Each run that made a session made exactly one, and each session is a run's.
      const sessions = (await store.listSessions({ limit: 200 })).sessions;
      const withSession = runs.filter((run) => run.sessionId !== null);
      expect(new Set(sessions.map((session) => session.id))).toEqual(new Set(withSession.map((run) => run.sessionId)));
      expect(withSession.map((run) => run.id).sort()).toEqual([...a.started(), ...b.started()].sort());
      // Each row names the daemon that ran it.
      for (const run of withSession) expect(run.daemonId).toBe(a.started().includes(run.id) ? a.daemonId : b.daemonId);
      for (const session of sessions) expect(session.meta).toMatchObject({ schedule: { id: 'tick', runId: withSession.find((run) => run.sessionId === session.id)!.id } });
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a missed run seen by two daemons starting after a downtime is caught up once', async () => {
    // Both daemons have read the history before either records a run: both see the missed time.
    const { url, a, b } = await setUp({ wrapStore: startRunsTogether(2) });
    // The last run was in 2024: both daemons find the 2025 new year missed.
    const old = await openPostgresStore(url, { now: () => new Date('2024-06-01T12:00:00Z') });
    await old.schedules.startRun({ id: 'run_2024', scheduleId: 'new-year', sessionId: null, trigger: 'cron', dueAt: '2024-01-01T00:00:00.000Z' });
    await old.schedules.finishRun('run_2024', { outcome: 'completed', stopReason: 'end_turn' });
    await old.close();

    const newYear = ScheduleConfigSchema.parse({ name: 'new-year', cron: '0 0 1 1 *', timezone: 'UTC', prompt: 'happy new year', cwd: workspace, runMissed: true });
    await Promise.all([a.scheduler.start([newYear]), b.scheduler.start([newYear])]);
    const finished = (daemon: DaemonScheduler): boolean => daemon.events.some((event) => event.type === 'schedule_run_finished');
    await until(() => (finished(a) && b.debug.length === 1) || (finished(b) && a.debug.length === 1), 20_000, 'one catch-up run and one skip');

    const [winner, loser] = finished(a) ? [a, b] : [b, a];
    expect(winner.started()).toHaveLength(1);
    expect(loser.started()).toEqual([]);
    expect(takenRunIds(loser)).toEqual(winner.started());
    expect(loser.debug[0]).toContain('the run due at 2025-01-01T00:00:00.000Z');
    expect(winner.logs).toEqual([expect.stringContaining(`was due at 2025-01-01T00:00:00.000Z while the daemon was down; catch-up run ${winner.started()[0]}: started`)]);
    expect(loser.logs).toEqual([]);

    const store = await openPostgresStore(url);
    try {
      const { runs } = await store.schedules.listRuns('new-year', {});
      expect(runs).toEqual([
        expect.objectContaining({ id: winner.started()[0], trigger: 'missed', dueAt: '2025-01-01T00:00:00.000Z', daemonId: winner.daemonId, sessionId: expect.any(String), outcome: 'completed' }),
        expect.objectContaining({ id: 'run_2024' }),
      ]);
      expect((await store.listSessions({})).sessions.map((session) => session.id)).toEqual([runs[0]!.sessionId]);
      expect(replay.requests).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a daemon starting beside a live one ends only a gone daemon\'s unfinished run; the live one records its own run\'s end', async () => {
    // b asks what the lead's cluster wiring asks: is the run's daemon still alive? Here a is.
    const { url, a, b } = await setUp({}, (a) => ({ isRunAbandoned: async (run) => run.daemonId !== a.daemonId }));
    const slow = ScheduleConfigSchema.parse({ name: 'slow', cron: '0 0 1 1 *', prompt: 'think', cwd: workspace });
    await a.scheduler.start([slow]);
    // A third daemon died during a run.
    const gone = await openPostgresStore(url);
    await gone.schedules.startRun({ id: 'run_of_gone', scheduleId: 'slow', sessionId: 'ses_gone', trigger: 'manual', daemonId: createDaemonId() });
    await gone.close();
    // The vendor stalls: a's run goes on.
    replay.enqueue({ body: chatCompletionSse(['never ', 'finished']), stallAfterBytes: 120 });
    const running = await a.scheduler.run('slow');
    expect(running.status).toBe('started');
    await until(() => replay.requests.length === 1, 10_000, 'the run\'s model request');

    await b.scheduler.start([slow]);
    expect(b.logs).toEqual(['marked 1 scheduled run(s) failed: the daemon stopped while they ran']);
    const history = await b.scheduler.history('slow', {});
    expect(history.runs).toEqual([
      expect.objectContaining({ runId: running.runId, endedAt: null, outcome: null }),
      expect.objectContaining({ runId: 'run_of_gone', outcome: 'failed', error: expect.stringContaining('agentd stopped while this run was going') }),
    ]);

    await a.scheduler.stop();
    const ended = (await b.scheduler.history('slow', {})).runs[0];
    expect(ended).toMatchObject({ runId: running.runId, outcome: 'cancelled', error: expect.stringContaining('the daemon shut down') });
    expect(a.logs).toEqual([]);
  }, 60_000);
});

/**
 * Wraps each daemon's real store so that `startRun` waits until `count` calls of it (from
 * any daemon) have arrived: whoever records first, every daemon has decided to run by then.
 */
function startRunsTogether(count: number): (store: ScheduleStore) => ScheduleStore {
  let arrived = 0;
  let release!: () => void;
  const together = new Promise<void>((resolve) => (release = resolve));
  return (store) =>
    new Proxy(store, {
      get(target, key) {
        if (key === 'startRun') {
          return async (run: Parameters<ScheduleStore['startRun']>[0]) => {
            if (++arrived === count) release();
            await together;
            return target.startRun(run);
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
}
