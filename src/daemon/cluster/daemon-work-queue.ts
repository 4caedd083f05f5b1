import type { WorkQueue } from '../../server/work-queue.js';
import type { QueuedPromptJob, RunQueuedPrompt } from './run-queued-prompt.js';

export type { QueuedPromptJob } from './run-queued-prompt.js';

/**
 * A work queue as the daemon drives it (handlers see only WorkQueue). Both implementations
 * take a job only while one of the daemon's turn slots is free, hold that slot for the job
 * and hand it to the turn (see RunQueuedPrompt), so headless and interactive turns share
 * `cluster.concurrency`.
 */
export interface DaemonWorkQueue extends WorkQueue {
  /** Starts taking jobs, each run by `run`; resolves once the queue can take and give work. */
  start(run: RunQueuedPrompt): Promise<void>;
  /** Takes no more jobs (first at shutdown, before the running turns are stopped). */
  stopTaking(): void;
  /** Waits for the jobs in hand to settle and lets the queue go (after the turns were stopped). */
  close(): Promise<void>;
}
