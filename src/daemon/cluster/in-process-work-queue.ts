import { randomUUID } from 'node:crypto';
import type { QueuedPrompt } from '../../server/work-queue.js';
import type { ReleaseSlot, TurnSlots } from '../../session/turn-slots.js';
import type { DaemonWorkQueue } from './daemon-work-queue.js';
import type { QueuedPromptJob, RunQueuedPrompt } from './run-queued-prompt.js';

/**
 * The work queue of one daemon on the SQLite store: jobs wait in this daemon's memory, in
 * order, and start as soon as a turn slot is free; a session's jobs run one at a time in
 * the order queued, without holding up other sessions' jobs behind them. Nothing retries a
 * job here: a job fails only when its turn fails (recorded like any turn), and jobs still
 * waiting when the daemon stops are dropped (logged) — what the PostgreSQL store's pg-boss
 * queue keeps across a daemon's stop.
 */
export class InProcessWorkQueue implements DaemonWorkQueue {
  readonly kind = 'in-process';
  private readonly queued: QueuedPromptJob[] = [];
  /** Ids of the jobs running now (a job queued again under one of them is not queued twice). */
  private readonly running = new Set<string>();
  /** Sessions whose job runs now: their next job waits. */
  private readonly busySessions = new Set<string>();
  private readonly inHand = new Set<Promise<void>>();
  private run: RunQueuedPrompt | undefined;
  private taking = false;
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly daemonId: string,
    private readonly slots: TurnSlots,
    private readonly log: (line: string) => void,
  ) {}

  async start(run: RunQueuedPrompt): Promise<void> {
    this.run = run;
    this.taking = true;
    this.stopWatching = this.slots.onFree(() => this.take());
    this.take();
  }

  async queuePrompt(prompt: QueuedPrompt): Promise<{ jobId: string }> {
    if (!this.taking) throw new Error('the daemon is stopping: queue the prompt again once it runs');
    const { jobId, ...rest } = prompt;
    const job = { id: jobId ?? randomUUID(), ...rest };
    if (this.running.has(job.id) || this.queued.some((waiting) => waiting.id === job.id)) return { jobId: job.id };
    this.queued.push(job);
    this.take();
    return { jobId: job.id };
  }

  async waiting(): Promise<number> {
    return this.queued.length;
  }

  async runningByDaemon(): Promise<Record<string, number>> {
    return this.inHand.size > 0 ? { [this.daemonId]: this.inHand.size } : {};
  }

  get held(): number {
    return this.queued.length + this.inHand.size;
  }

  stopTaking(): void {
    this.taking = false;
    this.stopWatching?.();
    if (this.queued.length > 0) this.log(`${this.queued.length} queued prompt(s) dropped: on the SQLite store the work queue lives in the daemon's memory`);
    this.queued.length = 0;
  }

  async close(): Promise<void> {
    await Promise.all(this.inHand);
  }

  /** Starts every waiting job whose session is free, while slots are free. */
  private take(): void {
    const run = this.run;
    if (!run || !this.taking) return;
    for (let index = 0; index < this.queued.length; ) {
      const job = this.queued[index]!;
      if (this.busySessions.has(job.sessionId)) {
        index++;
        continue;
      }
      const slot = this.slots.tryAcquire();
      if (!slot) return;
      this.queued.splice(index, 1);
      this.execute(run, job, slot);
    }
  }

  private execute(run: RunQueuedPrompt, job: QueuedPromptJob, slot: ReleaseSlot): void {
    this.busySessions.add(job.sessionId);
    this.running.add(job.id);
    const done = run(job, slot)
      .then(
        (result) => {
          if (result.outcome === 'skipped') this.log(`queued prompt ${job.id} for session ${job.sessionId} skipped: ${result.reason}`);
        },
        (error: Error) => this.log(`queued prompt ${job.id} for session ${job.sessionId} failed: ${error.message}`),
      )
      .finally(() => {
        this.busySessions.delete(job.sessionId);
        this.running.delete(job.id);
        this.inHand.delete(done);
        this.take();
      });
    this.inHand.add(done);
  }
}
