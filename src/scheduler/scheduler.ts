import { randomUUID } from 'node:crypto';
import type {
  AddScheduleRequest,
  DaemonEvent,
  RunScheduleResponse,
  Schedule,
  ScheduleHistoryResponse,
  UpdateScheduleRequest,
} from '../../protocol/index.js';
import type { ScheduleConfig } from '../config/config-schema.js';
import type { IsRunAbandoned, ScheduleStore } from '../store/schedule-store.js';
import { StoreError } from '../store/store-error.js';
import { checkSchedule } from './check-schedule.js';
import { missedRunTime } from './missed-run-time.js';
import type { RunPrompt } from './run-prompt-port.js';
import { ScheduleInvalidError, ScheduleNotFoundError, ScheduleReadOnlyError } from './schedule-errors.js';
import { ScheduleJob, type ScheduleJobDeps } from './schedule-job.js';
import { applyUpdate, definitionOf, specFromAdd, specFromConfig, specFromStored, type ScheduleSpec } from './schedule-spec.js';
import { toScheduleRun } from './to-schedule-run.js';

export interface SchedulerOptions {
  store: ScheduleStore;
  /**
   * This daemon's id (`dmn_…`), recorded with every run it records, so that where daemons
   * share the store, `isRunAbandoned` can tell a live daemon's run from a dead one's.
   */
  daemonId?: string;
  /** Starts a run's session and prompt (the server builds it from the SessionManager). */
  runPrompt: RunPrompt;
  /** Announces runs starting and finishing (the server broadcasts them as `agentd/daemonEvent`). */
  emit(event: DaemonEvent): void;
  log(line: string): void;
  /** Lines for someone tracing the scheduler (a due time another daemon took); dropped when unset. */
  debug?(line: string): void;
  /** The clock for missed-run checks; tests move it. */
  now?: () => Date;
  /**
   * Which unfinished runs start-up may mark failed. Unset, every one: one daemon per store,
   * so a run without an end is one it was running when it died. Daemons sharing a store
   * must pass a check that leaves the runs of live daemons alone: a run's `daemonId`
   * is the daemon running it, from before its session exists until its end is recorded.
   */
  isRunAbandoned?: IsRunAbandoned;
  /**
   * Whether this daemon serves a folder (`cluster.roots`). A schedule whose folder it does
   * not serve is listed but neither fired nor caught up here: a daemon that serves it does.
   * Unset: every folder.
   */
  serves?: (cwd: string) => boolean;
}

/**
 * The daemon's cron jobs: schedules from config.json (replaced as a set on reload) and
 * those added over the protocol (kept in the store), each a ScheduleJob with its timer and
 * runs. Reaches the rest of the daemon only through the RunPrompt port and `emit`.
 */
export class Scheduler {
  private readonly fromConfig = new Map<string, ScheduleJob>();
  private readonly added = new Map<string, ScheduleJob>();
  private readonly deps: ScheduleJobDeps;
  private readonly now: () => Date;
  private stopped = false;
  /** Settles when the last schedules/add, update or remove has: each reads and writes after the one before. */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SchedulerOptions) {
    this.deps = {
      store: options.store,
      runPrompt: options.runPrompt,
      emit: options.emit,
      log: options.log,
      ...(options.debug ? { debug: options.debug } : {}),
      ...(options.daemonId !== undefined ? { daemonId: options.daemonId } : {}),
      serves: options.serves ?? (() => true),
    };
    this.now = options.now ?? (() => new Date());
  }

  /**
   * At start-up: runs a killed daemon left unfinished are marked failed, every schedule's
   * timer starts, and each schedule with `runMissed` whose time passed while the daemon was
   * down runs once (trigger "missed"): once across the daemons sharing the store, which all
   * name it by the same due time.
   */
  async start(configSchedules: readonly ScheduleConfig[] = []): Promise<void> {
    const { store, log } = this.options;
    const recovered = await store.recoverUnfinishedRuns(this.options.isRunAbandoned);
    if (recovered.length > 0) log(`marked ${recovered.length} scheduled run(s) failed: the daemon stopped while they ran`);
    const storedSchedules = await store.listSchedules();
    if (this.stopped) return;
    for (const stored of storedSchedules) {
      const spec = specFromStored(stored);
      this.startJob(this.added, spec);
    }
    this.setConfigSchedules(configSchedules);
    for (const job of this.jobs()) {
      const { spec } = job;
      if (!spec.enabled || !spec.runMissed || !this.deps.serves(spec.cwd)) continue;
      // Since the last run; a schedule never run counts from when it was added (config ones have no such time).
      const since = (await store.lastRun(spec.id))?.startedAt ?? (spec.source === 'protocol' ? (await store.getSchedule(spec.id))?.createdAt : undefined);
      const due = since !== undefined ? this.missedSince(spec, new Date(since)) : undefined;
      if (!due) continue;
      void job
        .trigger('missed', due)
        .then((result) => {
          if (result.status !== 'taken') log(`schedule ${spec.id} was due at ${due.toISOString()} while the daemon was down; catch-up run ${result.runId}: ${result.status}`);
        })
        .catch((error: Error) => log(`schedule ${spec.id}: ${error.message}`));
    }
  }

  /**
   * Replaces the schedules from config.json (at start-up and when the file changes): new
   * ones start, changed ones take their new definition (a run going on finishes), removed
   * ones stop and their running run is cancelled.
   */
  setConfigSchedules(schedules: readonly ScheduleConfig[]): void {
    if (this.stopped) return;
    const wanted = new Map(schedules.map((config) => [config.name, specFromConfig(config)]));
    for (const [id, job] of this.fromConfig) {
      if (wanted.has(id)) continue;
      this.fromConfig.delete(id);
      void job.stop('the schedule was removed from config.json');
    }
    for (const [id, spec] of wanted) {
      const job = this.fromConfig.get(id);
      if (!job) this.startJob(this.fromConfig, spec);
      else if (JSON.stringify(job.spec) !== JSON.stringify(spec)) job.replace(spec);
    }
  }

  /** Every schedule: config ones first, then added ones, each by name. */
  list(): Schedule[] {
    const byName = (a: ScheduleJob, b: ScheduleJob): number => a.spec.name.localeCompare(b.spec.name);
    return [...[...this.fromConfig.values()].sort(byName), ...[...this.added.values()].sort(byName)].map(describe);
  }

  get(id: string): Schedule {
    return describe(this.job(id));
  }

  /** `schedules/add`: checked, stored, started. */
  add(params: AddScheduleRequest): Promise<Schedule> {
    return this.oneAtATime(async () => {
      const spec = specFromAdd(`sch_${randomUUID()}`, params);
      this.requireValid(spec);
      const job = this.startJob(this.added, await this.save(spec));
      return describe(job);
    });
  }

  /** `schedules/update` of an added schedule. */
  update(params: UpdateScheduleRequest): Promise<Schedule> {
    return this.oneAtATime(async () => {
      const job = this.job(params.id);
      if (job.spec.source === 'config') throw new ScheduleReadOnlyError(params.id, 'update');
      const spec = applyUpdate(job.spec, params);
      this.requireValid(spec);
      job.replace(await this.save(spec));
      return describe(job);
    });
  }

  /** `schedules/remove` of an added schedule: its running run is cancelled, its history kept. */
  async remove(id: string): Promise<void> {
    const job = await this.oneAtATime(async () => {
      const job = this.job(id);
      if (job.spec.source === 'config') throw new ScheduleReadOnlyError(id, 'remove');
      this.added.delete(id);
      await this.options.store.deleteSchedule(id);
      return job;
    });
    await job.stop('the schedule was removed');
  }

  /** `schedules/run`: runs now (also a disabled schedule); resolves once the run has started. */
  run(id: string): Promise<RunScheduleResponse> {
    return this.job(id).trigger('manual');
  }

  /** `schedules/history`: newest first. A removed schedule's history stays readable. */
  async history(id: string, page: { cursor?: string; limit?: number }): Promise<ScheduleHistoryResponse> {
    const { store } = this.options;
    if (!this.find(id) && !(await store.lastRun(id))) throw new ScheduleNotFoundError(id);
    const { runs, nextCursor } = await store.listRuns(id, page);
    return { runs: runs.map(toScheduleRun), nextCursor };
  }

  /** Daemon shutdown: every timer stops and every running run is cancelled (recorded as such). */
  async stop(): Promise<void> {
    this.stopped = true;
    const jobs = this.jobs();
    this.fromConfig.clear();
    this.added.clear();
    await Promise.all(jobs.map((job) => job.stop('the daemon shut down')));
  }

  private jobs(): ScheduleJob[] {
    return [...this.fromConfig.values(), ...this.added.values()];
  }

  private find(id: string): ScheduleJob | undefined {
    return this.fromConfig.get(id) ?? this.added.get(id);
  }

  private job(id: string): ScheduleJob {
    const job = this.find(id);
    if (!job) throw new ScheduleNotFoundError(id);
    return job;
  }

  private startJob(into: Map<string, ScheduleJob>, spec: ScheduleSpec): ScheduleJob {
    const job = new ScheduleJob(spec, this.deps);
    into.set(spec.id, job);
    if (this.stopped) return job;
    if (spec.enabled && !this.deps.serves(spec.cwd)) {
      this.options.log(`schedule ${spec.id} runs on a daemon that serves ${spec.cwd}, not here: the folder is outside this daemon's cluster.roots`);
    }
    try {
      job.start();
    } catch (error) {
      // A stored schedule a newer croner no longer accepts: listed, never run.
      this.options.log(`schedule ${spec.id} cannot run: ${(error as Error).message}`);
    }
    return job;
  }

  private missedSince(spec: ScheduleSpec, since: Date): Date | undefined {
    try {
      return missedRunTime(spec, since, this.now());
    } catch {
      return undefined;
    }
  }

  /** Throws ScheduleInvalidError naming each bad field; a name must be unique across config and added schedules. */
  private requireValid(spec: ScheduleSpec): void {
    const issues = checkSchedule(spec);
    const sameName = this.jobs().find((job) => job.spec.name === spec.name && job.spec.id !== spec.id);
    if (sameName) {
      const where = sameName.spec.source === 'config' ? 'in config.json' : `(${sameName.spec.id})`;
      issues.unshift(`name: a schedule named ${JSON.stringify(spec.name)} already exists ${where}; choose another name`);
    }
    if (issues.length > 0) throw new ScheduleInvalidError(issues);
  }

  /**
   * Runs `change` after every change asked for before it: an update reads the schedule
   * another has just saved, and a removal cannot be undone by a save still in flight.
   */
  private oneAtATime<T>(change: () => Promise<T>): Promise<T> {
    const done = this.changes.then(change);
    this.changes = done.catch(() => undefined);
    return done;
  }

  private async save(spec: ScheduleSpec): Promise<ScheduleSpec> {
    try {
      await this.options.store.saveSchedule({ id: spec.id, name: spec.name, definition: definitionOf(spec) });
    } catch (error) {
      if (error instanceof StoreError && error.code === 'conflict') throw new ScheduleInvalidError([`name: ${error.message}`]);
      throw error;
    }
    return spec;
  }
}

function describe(job: ScheduleJob): Schedule {
  return { ...job.spec, nextRunAt: job.nextRunAt() };
}
