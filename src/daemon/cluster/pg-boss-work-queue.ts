import type PgBoss from 'pg-boss';
import type { ContentBlock } from '../../../protocol/index.js';
import type { QueuedPrompt } from '../../server/work-queue.js';
import type { ReleaseSlot, TurnSlots } from '../../session/turn-slots.js';
import type { DaemonWorkQueue } from './daemon-work-queue.js';
import type { PgBossConnection } from './pg-boss-connection.js';
import type { QueuedPromptResult, RunQueuedPrompt } from './run-queued-prompt.js';
import { failGoneTakersSql, fetchPromptJobSql, promptJobIndexesSql, runningByTakerSql } from './prompt-job-sql.js';
import { RunAgainWhenAsked } from './run-again-when-asked.js';

/** The pg-boss queue of headless prompts, in the schema `pgboss` of the store's database. */
export const PROMPT_QUEUE = 'agentd-prompts';
/** Told on each job queued, so every daemon fetches at once instead of at its next poll. */
const WAKE_CHANNEL = 'agentd_work';
/** Looks for jobs nobody announced (retries whose delay is over) and gives back those of daemons that are gone. */
const SWEEP_MS = 2000;
/** pg-boss's schema in the store's database (see PgBossConnection). */
const SCHEMA = 'pgboss';

/**
 * The retry policy. A job is active from the moment a daemon takes it until its turn ends.
 * A job whose run threw had nothing stored (its session could not be loaded, the store
 * failed before the turn's row was written): pg-boss gives it to a daemon again after
 * 5 s, 10 s, 20 s (retryBackoff doubles retryDelay), then marks it failed. A job whose
 * daemon died is given back by the live daemons' sweep as soon as that daemon counts as
 * gone (no heartbeat for its lease), to wait again at once; it counts as a try. A retried
 * job whose turn is stored (the prompt was committed before the daemon died) is skipped,
 * never run again: start-up recovery marks that turn interrupted, as on one daemon (see
 * createRunQueuedPrompt). `expireInSeconds` is only the last resort for a job whose taker
 * was never recorded; a turn running longer than that is not run twice either (its turn is stored).
 */
export const PROMPT_RETRY_POLICY = { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600 } as const;

interface PromptJobData {
  sessionId: string;
  prompt: ContentBlock[];
  /** The session's folder, read by fetchPromptJobSql: only daemons whose roots hold it take the job. */
  cwd: string;
}

/** What this daemon is to the queue: who takes jobs, for which folders, and who else lives. */
export interface PromptTaker {
  daemonId: string;
  /** The folders whose sessions' jobs it takes (normalized, see folder roots); empty: every folder. */
  roots: readonly string[];
  /** The ids of the daemons alive now (the registry): jobs taken by any other are given back. */
  liveDaemonIds(): Promise<string[]>;
}

/**
 * Headless prompts as pg-boss jobs in the PostgreSQL store, taken by any daemon of the
 * cluster with a free turn slot that serves the session's folder. The queue's policy is
 * `singleton` keyed by session: a session's jobs run one at a time across the cluster, in
 * the order queued, and a busy session's next job does not hold up the others (see
 * fetchPromptJobSql). pg-boss 10 only polls (every 2 s at best 0.5 s), so this daemon
 * fetches itself, one job per free slot: when a job is queued anywhere (NOTIFY on a
 * dedicated connection), when a slot comes free, and every SWEEP_MS for retries.
 */
export class PgBossWorkQueue implements DaemonWorkQueue {
  readonly kind = 'pg-boss';
  private boss: PgBoss | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private stopWatching: (() => void) | undefined;
  private run: RunQueuedPrompt | undefined;
  private taking = false;
  private readonly fetcher = new RunAgainWhenAsked(() => this.fetchWhileFree());
  private readonly inHand = new Set<Promise<void>>();

  private sweeping = false;

  constructor(
    private readonly connection: PgBossConnection,
    private readonly slots: TurnSlots,
    private readonly taker: PromptTaker,
    private readonly log: (line: string) => void,
  ) {}

  async start(run: RunQueuedPrompt): Promise<void> {
    const { boss } = this.connection;
    await this.connection.oneAtATime(async () => {
      await boss.createQueue(PROMPT_QUEUE, { name: PROMPT_QUEUE, policy: 'singleton', ...PROMPT_RETRY_POLICY });
      for (const statement of promptJobIndexesSql(SCHEMA)) await boss.getDb().executeSql(statement, []);
    });
    this.boss = boss;
    await this.connection.listen(WAKE_CHANNEL, () => this.take());
    this.run = run;
    this.taking = true;
    this.stopWatching = this.slots.onFree(() => this.take());
    this.sweep = setInterval(() => {
      this.take();
      void this.giveBackGoneTakers();
    }, SWEEP_MS);
    this.sweep.unref();
    this.take();
  }

  async queuePrompt(prompt: QueuedPrompt): Promise<{ jobId: string }> {
    const boss = this.boss;
    if (!boss || !this.taking) throw new Error('the daemon\'s work queue is not running: queue the prompt again once the daemon runs');
    const data: PromptJobData = { sessionId: prompt.sessionId, prompt: prompt.prompt, cwd: prompt.cwd };
    const jobId = await boss.send(PROMPT_QUEUE, data, { singletonKey: prompt.sessionId, ...(prompt.jobId === undefined ? {} : { id: prompt.jobId }) });
    // With an id given, nothing queued means a job with that id is queued already (pg-boss's insert does nothing on a conflict).
    if (jobId === null && prompt.jobId !== undefined) return { jobId: prompt.jobId };
    if (jobId === null) throw new Error(`pg-boss did not queue the prompt for session ${prompt.sessionId}; send it again`);
    await this.connection.notify(WAKE_CHANNEL, '');
    return { jobId };
  }

  async waiting(): Promise<number> {
    return this.boss ? this.boss.getQueueSize(PROMPT_QUEUE) : 0;
  }

  async runningByDaemon(): Promise<Record<string, number>> {
    if (!this.boss) return {};
    const { rows } = await this.boss.getDb().executeSql(runningByTakerSql(SCHEMA), [PROMPT_QUEUE]);
    return Object.fromEntries((rows as Array<{ daemon: string; n: number }>).map((row) => [row.daemon, row.n]));
  }

  /** Jobs taken by this daemon (those waiting are in the database, for any daemon). */
  get held(): number {
    return this.inHand.size;
  }

  stopTaking(): void {
    this.taking = false;
    this.stopWatching?.();
    if (this.sweep) clearInterval(this.sweep);
  }

  /** Waits for the jobs in hand; the connection is closed by its owner (see openCluster). */
  async close(): Promise<void> {
    this.stopTaking();
    await Promise.all(this.inHand);
  }

  /**
   * A job fetched while the daemon began to stop is given back untouched (failed, then
   * revived if that was its last try), for another daemon: its turn would be cut short here.
   */
  private async runUnlessStopping(boss: PgBoss, run: RunQueuedPrompt, job: PgBoss.Job<PromptJobData>, slot: ReleaseSlot): Promise<QueuedPromptResult> {
    if (this.taking) return run({ id: job.id, sessionId: job.data.sessionId, prompt: job.data.prompt }, slot);
    slot();
    await boss.fail(PROMPT_QUEUE, job.id, { message: 'the daemon that took it was stopping' });
    await boss.retry(PROMPT_QUEUE, job.id);
    return { outcome: 'skipped', reason: 'this daemon is stopping; the job waits for another' };
  }

  /** Fetches one job per free slot until none is waiting; a call during a fetch makes it look again. */
  private take(): void {
    if (this.taking) this.fetcher.ask();
  }

  private async fetchWhileFree(): Promise<void> {
    const boss = this.boss;
    const run = this.run;
    if (!boss || !run) return;
    while (this.taking) {
      const slot = this.slots.tryAcquire();
      if (!slot) return;
      let job: PgBoss.Job<PromptJobData> | undefined;
      try {
        job = await this.fetchOne(boss);
      } catch (error) {
        this.log(`work queue: cannot fetch a job: ${(error as Error).message}`);
      }
      if (!job) {
        // Given back quietly: this slot coming free again is no news to fetch on (a wake-up meanwhile is).
        const wanted = this.fetcher.again;
        slot();
        this.fetcher.again = wanted;
        return;
      }
      this.execute(boss, run, job, slot);
    }
  }

  /** One job this daemon may run now, marked as taken by it; none when the database refuses (another daemon took the session's job first). */
  private async fetchOne(boss: PgBoss): Promise<PgBoss.Job<PromptJobData> | undefined> {
    const { daemonId, roots } = this.taker;
    let rows: Array<{ id: string; data: PromptJobData }>;
    try {
      ({ rows } = await boss.getDb().executeSql(fetchPromptJobSql(SCHEMA), [PROMPT_QUEUE, daemonId, roots]));
    } catch (error) {
      // Two daemons activating jobs of one session at the same moment: the singleton index refuses the second.
      if ((error as { code?: string }).code === '23505') return undefined;
      throw error;
    }
    const [row] = rows;
    return row === undefined ? undefined : ({ id: row.id, name: PROMPT_QUEUE, data: row.data } as PgBoss.Job<PromptJobData>);
  }

  /** Jobs taken by daemons no longer alive wait again at once (one sweep at a time here; the statement is safe across daemons). */
  private async giveBackGoneTakers(): Promise<void> {
    const boss = this.boss;
    if (!boss || !this.taking || this.sweeping) return;
    this.sweeping = true;
    try {
      // Never its own: a daemon whose heartbeats could not be written (its database was away) still runs what it took.
      const alive = [...(await this.taker.liveDaemonIds()), this.taker.daemonId];
      const { rows } = await boss.getDb().executeSql(failGoneTakersSql(SCHEMA), [PROMPT_QUEUE, alive]);
      for (const row of rows as Array<{ id: string; state: string; sessionId: string }>) {
        this.log(`queued prompt ${row.id} for session ${row.sessionId}: the daemon that took it is gone; ${row.state === 'retry' ? 'it waits again for a daemon' : 'it failed, out of retries'}`);
      }
      if (rows.length > 0) this.take();
    } catch (error) {
      this.log(`work queue: cannot give back the jobs of gone daemons: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  private execute(boss: PgBoss, run: RunQueuedPrompt, job: PgBoss.Job<PromptJobData>, slot: ReleaseSlot): void {
    const { sessionId } = job.data;
    const done = this.runUnlessStopping(boss, run, job, slot)
      .then(
        async (result: QueuedPromptResult) => {
          if (result.outcome === 'skipped') this.log(`queued prompt ${job.id} for session ${sessionId} skipped: ${result.reason}`);
          await boss.complete(PROMPT_QUEUE, job.id, result);
        },
        async (error: Error) => {
          this.log(`queued prompt ${job.id} for session ${sessionId} failed before it was stored (pg-boss retries it): ${error.message}`);
          await boss.fail(PROMPT_QUEUE, job.id, { message: error.message });
        },
      )
      .catch((error: Error) => this.log(`work queue: cannot record the end of job ${job.id}: ${error.message}`))
      .finally(() => {
        this.inHand.delete(done);
        // The session's next job could not be fetched while this one was active.
        this.take();
      });
    this.inHand.add(done);
  }
}
