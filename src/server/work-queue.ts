import type { ContentBlock } from '../../protocol/index.js';

/** A prompt queued as headless work: `session/prompt` with `_meta.agentd.queue`, or `agentd run --detach`. */
export interface QueuedPrompt {
  sessionId: string;
  prompt: ContentBlock[];
  /**
   * The session's folder, normalized (the real path of what this machine has of it): a
   * daemon takes only jobs whose folder its `cluster.roots` hold (`cwd = root`, or under it).
   */
  cwd: string;
  /** The job's id (a UUID), when the caller has one: queueing the same id again queues nothing. A new one otherwise. */
  jobId?: string;
}

/**
 * The daemon's work queue as handlers see it. src/daemon/cluster/ implements it twice: in
 * this daemon's memory on the SQLite store (one daemon), and on pg-boss in the PostgreSQL
 * store, where any daemon of the cluster with a free turn slot takes the job.
 */
export interface WorkQueue {
  /** Where jobs wait: `in-process` (lost if this daemon stops first) or `pg-boss` (kept in the database). */
  readonly kind: 'in-process' | 'pg-boss';
  /** Queues the prompt; resolves once it is queued (stored, on pg-boss) with the job's id, which becomes its turn's id. */
  queuePrompt(job: QueuedPrompt): Promise<{ jobId: string }>;
  /** Jobs waiting for a daemon to take them (running ones not counted). */
  waiting(): Promise<number>;
  /** Jobs running now, by the id of the daemon that took each (every daemon of the cluster on pg-boss; this one in memory). */
  runningByDaemon(): Promise<Record<string, number>>;
  /** Jobs this daemon holds now, waiting in its memory or taken: a daemon started on demand stays while there are any. */
  readonly held: number;
}
