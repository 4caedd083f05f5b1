import { randomUUID } from 'node:crypto';
import type { Cron } from 'croner';
import { loadCron } from '../config/load-croner.js';
import type { DaemonEventOf, RunScheduleResponse, ScheduleRunOutcome, ScheduleRunTrigger } from '../../protocol/index.js';
import type { ScheduleRunEnd, ScheduleStore } from '../store/schedule-store.js';
import type { RunPrompt, RunPromptResult } from './run-prompt-port.js';
import type { ScheduleSpec } from './schedule-spec.js';

/** What a job needs of the scheduler that owns it. */
export interface ScheduleJobDeps {
  store: ScheduleStore;
  runPrompt: RunPrompt;
  emit(event: DaemonEventOf<'schedule_run_started'> | DaemonEventOf<'schedule_run_finished'>): void;
  log(line: string): void;
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
  private queued: { runId: string; trigger: ScheduleRunTrigger } | undefined;

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

  /** Starts the cron timer (only for an enabled schedule). */
  start(): void {
    if (!this.spec.enabled || this.timer) return;
    this.timer = new (loadCron())(this.spec.cron, { timezone: this.spec.timezone }, () => {
      void this.trigger('cron').catch((error: Error) => this.deps.log(`schedule ${this.spec.id}: ${error.message}`));
    });
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
   * Resolves once the run has started, with its session.
   */
  async trigger(trigger: ScheduleRunTrigger): Promise<RunScheduleResponse> {
    if (!this.running) return this.begin(newRunId(), trigger);
    if (this.spec.overlap === 'queue' && !this.queued) {
      this.queued = { runId: newRunId(), trigger };
      return { runId: this.queued.runId, sessionId: null, status: 'queued' };
    }
    const why =
      this.spec.overlap === 'queue'
        ? `run ${this.running.runId} was still going and another run was already queued (overlap "queue" keeps one waiting)`
        : `run ${this.running.runId} was still going (overlap "skip")`;
    const runId = newRunId();
    await this.recordUnstarted(runId, trigger, { outcome: 'skipped', error: why });
    return { runId, sessionId: null, status: 'skipped' };
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

  private async begin(runId: string, trigger: ScheduleRunTrigger): Promise<RunScheduleResponse> {
    const { spec } = this;
    const controller = new AbortController();
    // Held before the session exists, so a trigger meanwhile sees this run as going.
    let settle!: () => void;
    const finished = new Promise<void>((resolve) => (settle = resolve));
    const running: RunningRun = { runId, controller, finished, settle };
    this.running = running;
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
        await this.recordUnstarted(runId, trigger, { outcome: 'failed', error: `the run could not start: ${(error as Error).message}` });
      } finally {
        this.running = undefined;
        settle();
        this.startQueued();
      }
      return { runId, sessionId: null, status: 'failed', error: (error as Error).message };
    }
    const row = await this.deps.store.startRun({ id: runId, scheduleId: spec.id, sessionId: started.sessionId, trigger });
    this.deps.emit({ type: 'schedule_run_started', scheduleId: spec.id, runId, sessionId: started.sessionId, trigger, startedAt: row.startedAt });
    const timeout = setTimeout(() => {
      running.stopped ??= { outcome: 'timed_out', error: `the run took longer than its timeout of ${spec.timeoutMs} ms and was aborted` };
      controller.abort(new Error('timed out'));
    }, spec.timeoutMs);
    void started.done.then(async (result) => {
      clearTimeout(timeout);
      // The row is complete before the run stops counting as going: `finished` means recorded.
      await this.end(runId, started.sessionId, outcomeOf(result, running.stopped));
      this.running = undefined;
      settle();
      this.startQueued();
    });
    return { runId, sessionId: started.sessionId, status: 'started' };
  }

  /** A queued run that will not start still gets its row, so the id `schedules/run` gave is found. */
  private async dropQueued(why: string): Promise<void> {
    const queued = this.queued;
    if (!queued) return;
    this.queued = undefined;
    try {
      await this.recordUnstarted(queued.runId, queued.trigger, { outcome: 'cancelled', error: why });
    } catch (error) {
      this.deps.log(`schedule ${this.spec.id}: cannot record the dropped run ${queued.runId}: ${(error as Error).message}`);
    }
  }

  /** The row of a run that never had a session (skipped, dropped, failed to start): started and ended at once. */
  private async recordUnstarted(runId: string, trigger: ScheduleRunTrigger, end: ScheduleRunEnd): Promise<void> {
    await this.deps.store.startRun({ id: runId, scheduleId: this.spec.id, sessionId: null, trigger });
    await this.end(runId, null, end);
  }

  private startQueued(): void {
    const next = this.queued;
    if (!next) return;
    this.queued = undefined;
    void this.begin(next.runId, next.trigger).catch((error: Error) => this.deps.log(`schedule ${this.spec.id}: ${error.message}`));
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
