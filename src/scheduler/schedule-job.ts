import { randomUUID } from 'node:crypto';
import type { Cron } from 'croner';
import { loadCron } from '../config/load-croner.js';
import type { DaemonEventOf, RunScheduleResponse, ScheduleRunOutcome, ScheduleRunTrigger } from '../../protocol/index.js';
import type { NewScheduleRun, ScheduleRunEnd, ScheduleRunRecord, ScheduleStore } from '../store/schedule-store.js';
import type { RunPrompt, RunPromptResult } from './run-prompt-port.js';
import type { ScheduleSpec } from './schedule-spec.js';

/** What a job needs of the scheduler that owns it. */
export interface ScheduleJobDeps {
  store: ScheduleStore;
  /** This daemon's id, recorded with each run it records (see SchedulerOptions). */
  daemonId?: string;
  runPrompt: RunPrompt;
  emit(event: DaemonEventOf<'schedule_run_started'> | DaemonEventOf<'schedule_run_finished'>): void;
  log(line: string): void;
  /** What only someone tracing the scheduler wants: a due time another daemon took. */
  debug?(line: string): void;
  /** Whether this daemon serves the folder (`cluster.roots`): only then does its timer fire here. */
  serves(cwd: string): boolean;
}

/** A cron or missed run whose due time another daemon sharing the store had already recorded: nothing ran here. */
export interface TakenRun {
  status: 'taken';
  /** The other daemon's run of that due time. */
  run: ScheduleRunRecord;
}

interface RunningRun {
  runId: string;
  controller: AbortController;
  /** Why the scheduler stopped it, when it did (shutdown, removal, timeout). */
  stopped?: { outcome: 'timed_out' | 'cancelled'; error: string };
  /** Resolves once its history row is complete. */
  finished: Promise<void>;
  settle(): void;
}

/** A fresh run id: `run_` and a UUID. */
export function newRunId(): string {
  return `run_${randomUUID()}`;
}

/**
 * One schedule at work: its cron timer, the run going on (at most one), and at most one
 * run waiting behind it (overlap "queue"). Every run leaves one history row, written when
 * it starts and completed when it ends, and a started and a finished daemon event.
 */
export class ScheduleJob {
  private timer: Cron | undefined;
  private running: RunningRun | undefined;
  private queued: { runId: string; trigger: ScheduleRunTrigger; dueAt: Date | undefined } | undefined;
  /** The time the timer fires next: the due time of its next run, whenever the callback wakes. */
  private upcoming: Date | undefined;

  constructor(
    private current: ScheduleSpec,
    private readonly deps: ScheduleJobDeps,
  ) {}

  get spec(): ScheduleSpec {
    return this.current;
  }

  /**
   * Takes a changed definition: the timer restarts on it, a run going on finishes as it
   * began, and the next run uses the new one.
   */
  replace(spec: ScheduleSpec): void {
    this.timer?.stop();
    this.timer = undefined;
    this.current = spec;
    if (!spec.enabled) void this.dropQueued('the queued run never started: the schedule was disabled');
    this.start();
  }

  /** Starts the cron timer (only for an enabled schedule whose folder this daemon serves). */
  start(): void {
    if (!this.spec.enabled || this.timer || !this.deps.serves(this.spec.cwd)) return;
    const timer = new (loadCron())(this.spec.cron, { timezone: this.spec.timezone }, () => {
      // Croner calls back once the due time has passed (a little, or more on a busy loop):
      // every daemon sharing the store must name the run by that time, not by when it woke.
      const now = Date.now();
      const dueAt = this.upcoming !== undefined && this.upcoming.getTime() <= now ? this.upcoming : new Date(Math.floor(now / 1000) * 1000);
      this.upcoming = timer.nextRun() ?? undefined;
      void this.trigger('cron', dueAt).catch((error: Error) => this.deps.log(`schedule ${this.spec.id}: ${error.message}`));
    });
    this.upcoming = timer.nextRun() ?? undefined;
    this.timer = timer;
  }

  /** ISO 8601 time of the next cron run; null when disabled or there is none. */
  nextRunAt(): string | null {
    if (!this.spec.enabled) return null;
    try {
      const next = this.timer?.nextRun() ?? new (loadCron())(this.spec.cron, { timezone: this.spec.timezone, paused: true }).nextRun();
      return next ? next.toISOString() : null;
    } catch {
      // A stored cron this croner refuses (see Scheduler.startJob): listed, never run.
      return null;
    }
  }

  /**
   * A run is due: started now, or (a run going on) skipped or queued by the overlap rule.
   * Resolves once the run has started, with its session. A cron or missed run carries its
   * due time: when another daemon sharing the store has recorded that time already, nothing
   * happens here and the answer is `taken`. A manual run has none and always runs.
   */
  trigger(trigger: 'manual'): Promise<RunScheduleResponse>;
  trigger(trigger: 'cron' | 'missed', dueAt: Date): Promise<RunScheduleResponse | TakenRun>;
  async trigger(trigger: ScheduleRunTrigger, dueAt?: Date): Promise<RunScheduleResponse | TakenRun> {
    if (!this.running) return this.begin(newRunId(), trigger, dueAt);
    if (this.spec.overlap === 'queue' && !this.queued) {
      this.queued = { runId: newRunId(), trigger, dueAt };
      return { runId: this.queued.runId, sessionId: null, status: 'queued' };
    }
    const why =
      this.spec.overlap === 'queue'
        ? `run ${this.running.runId} was still going and another run was already queued (overlap "queue" keeps one waiting)`
        : `run ${this.running.runId} was still going (overlap "skip")`;
    const runId = newRunId();
    const taken = await this.recordUnstarted(runId, trigger, dueAt, { outcome: 'skipped', error: why });
    return taken ?? { runId, sessionId: null, status: 'skipped' };
  }

  /**
   * Stops the timer, drops a queued run and cancels the running one, saying `why` ("the
   * daemon shut down") in their rows; resolves when the running one has ended.
   */
  async stop(why: string): Promise<void> {
    this.timer?.stop();
    this.timer = undefined;
    await this.dropQueued(`the queued run never started: ${why}`);
    const running = this.running;
    if (!running) return;
    running.stopped ??= { outcome: 'cancelled', error: `${why} while the run was going` };
    running.controller.abort(new Error(why));
    await running.finished;
  }

  private async begin(runId: string, trigger: ScheduleRunTrigger, dueAt: Date | undefined): Promise<RunScheduleResponse | TakenRun> {
    const { spec } = this;
    const controller = new AbortController();
    // Held before the row and the session exist, so a trigger meanwhile sees this run as going.
    let settle!: () => void;
    const finished = new Promise<void>((resolve) => (settle = resolve));
    const running: RunningRun = { runId, controller, finished, settle };
    this.running = running;
    const release = (): void => {
      this.running = undefined;
      settle();
      this.startQueued();
    };
    // The row comes first: where daemons share the store, the one whose row takes the due time runs it.
    let claim;
    try {
      claim = await this.deps.store.startRun(this.newRun(runId, trigger, dueAt));
    } catch (error) {
      release();
      throw error;
    }
    if (claim.status === 'taken') {
      this.reportTaken(claim.run);
      release();
      return claim;
    }
    let started;
    try {
      started = await this.deps.runPrompt({
        scheduleId: spec.id,
        runId,
        title: spec.name,
        cwd: spec.cwd,
        prompt: spec.prompt,
        ...(spec.agent !== undefined ? { agent: spec.agent } : {}),
        ...(spec.model !== undefined ? { model: spec.model } : {}),
        ...(spec.budgetUsd !== undefined ? { budgetUsd: spec.budgetUsd } : {}),
        permissionMode: spec.permissionMode,
        signal: controller.signal,
      });
    } catch (error) {
      try {
        await this.end(runId, null, { outcome: 'failed', error: `the run could not start: ${(error as Error).message}` });
      } finally {
        release();
      }
      return { runId, sessionId: null, status: 'failed', error: (error as Error).message };
    }
    try {
      await this.deps.store.setRunSession(runId, started.sessionId);
    } catch (error) {
      // The turn is going: its end is still recorded; only the row's link to the session is missing.
      this.deps.log(`schedule ${spec.id}: cannot record the session of run ${runId}: ${(error as Error).message}`);
    }
    this.deps.emit({ type: 'schedule_run_started', scheduleId: spec.id, runId, sessionId: started.sessionId, trigger, startedAt: claim.run.startedAt });
    const timeout = setTimeout(() => {
      running.stopped ??= { outcome: 'timed_out', error: `the run took longer than its timeout of ${spec.timeoutMs} ms and was aborted` };
      controller.abort(new Error('timed out'));
    }, spec.timeoutMs);
    void started.done.then(async (result) => {
      clearTimeout(timeout);
      // The row is complete before the run stops counting as going: `finished` means recorded.
      await this.end(runId, started.sessionId, outcomeOf(result, running.stopped));
      release();
    });
    return { runId, sessionId: started.sessionId, status: 'started' };
  }

  /** A queued run that will not start still gets its row, so the id `schedules/run` gave is found. */
  private async dropQueued(why: string): Promise<void> {
    const queued = this.queued;
    if (!queued) return;
    this.queued = undefined;
    try {
      await this.recordUnstarted(queued.runId, queued.trigger, queued.dueAt, { outcome: 'cancelled', error: why });
    } catch (error) {
      this.deps.log(`schedule ${this.spec.id}: cannot record the dropped run ${queued.runId}: ${(error as Error).message}`);
    }
  }

  /**
   * The row of a run that never had a session (skipped, dropped): started and ended at once.
   * Nothing is written when another daemon has its due time (returned as taken).
   */
  private async recordUnstarted(runId: string, trigger: ScheduleRunTrigger, dueAt: Date | undefined, end: ScheduleRunEnd): Promise<TakenRun | undefined> {
    const claim = await this.deps.store.startRun(this.newRun(runId, trigger, dueAt));
    if (claim.status === 'taken') {
      this.reportTaken(claim.run);
      return claim;
    }
    await this.end(runId, null, end);
    return undefined;
  }

  /** A run's row before it has a session. */
  private newRun(runId: string, trigger: ScheduleRunTrigger, dueAt: Date | undefined): NewScheduleRun {
    const { daemonId } = this.deps;
    return { id: runId, scheduleId: this.spec.id, sessionId: null, trigger, ...(dueAt ? { dueAt: dueAt.toISOString() } : {}), ...(daemonId !== undefined ? { daemonId } : {}) };
  }

  private reportTaken(other: ScheduleRunRecord): void {
    this.deps.debug?.(`schedule ${this.spec.id}: the run due at ${other.dueAt} is run ${other.id}, recorded by another daemon; not running it here`);
  }

  private startQueued(): void {
    const next = this.queued;
    if (!next) return;
    this.queued = undefined;
    void this.begin(next.runId, next.trigger, next.dueAt).catch((error: Error) => this.deps.log(`schedule ${this.spec.id}: ${error.message}`));
  }

  /** Completes the history row and announces it. */
  private async end(runId: string, sessionId: string | null, end: ScheduleRunEnd): Promise<void> {
    try {
      const row = await this.deps.store.finishRun(runId, end);
      this.deps.emit({
        type: 'schedule_run_finished',
        scheduleId: this.spec.id,
        runId,
        sessionId,
        outcome: row.outcome as ScheduleRunOutcome,
        ...(row.stopReason ? { stopReason: row.stopReason } : {}),
        costUsd: row.costUsd,
        ...(row.error ? { error: row.error } : {}),
        endedAt: row.endedAt!,
      });
    } catch (error) {
      this.deps.log(`schedule ${this.spec.id}: cannot record the end of run ${runId}: ${(error as Error).message}`);
    }
  }
}

/** The history outcome of a turn that ended: the scheduler's own stop first, then the turn's. */
function outcomeOf(result: RunPromptResult, stopped: RunningRun['stopped']): ScheduleRunEnd {
  const base = { stopReason: result.stopReason, costUsd: result.costUsd };
  if (stopped) return { ...base, outcome: stopped.outcome, error: stopped.error };
  if (result.error !== undefined) return { ...base, outcome: 'failed', error: result.error };
  if (result.stopReason === 'cancelled') return { ...base, outcome: 'cancelled', error: 'the turn was cancelled by a client (session/cancel or session/abort)' };
  return { ...base, outcome: 'completed' };
}
