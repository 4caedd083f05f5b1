import type { ContentBlock } from '../../../protocol/index.js';
import type { WorkQueue } from '../../server/work-queue.js';
import type { PendingPromptStore } from '../../store/pending-prompt-store.js';

export interface PendingPromptRescueOptions {
  pendingPrompts: PendingPromptStore;
  daemonId: string;
  /** Where each rescued prompt goes, as its own turn (pg-boss on PostgreSQL, this daemon's memory on SQLite). */
  work: Pick<WorkQueue, 'queuePrompt'>;
  /** The session's folder as the work queue files jobs by (see QueuedPrompt.cwd). */
  folderOf(sessionId: string): Promise<string>;
  log(line: string): void;
}

/**
 * Runs the steers and follow-ups a daemon that is gone left waiting (see
 * pending-prompt-store.ts) elsewhere, each as its own turn of its session, in the order
 * they were queued, once across the cluster: the store lets one rescuer at a time claim
 * them, each is queued and then removed. A prompt whose queueing fails is given back with
 * the ones after it, so the order holds, and claimed again at the next rescue.
 *
 * Claimed first, removed after, and queued under its own id: a rescuer that dies between
 * queueing a prompt and removing it (one round trip) leaves it to the next, whose queueing of
 * the same id adds nothing; removed first, it would be lost instead. The claim is what makes
 * two rescuers queue a session's prompts once and in order.
 */
export class PendingPromptRescue {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: PendingPromptRescueOptions) {}

  /** Queues every orphan the store lets this daemon claim now; returns how many. A run asked for while one runs joins it. */
  rescue(): Promise<number> {
    this.running ??= this.claimAndQueue().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Rescues every `intervalMs` (a third of a lease: a dead daemon's prompts run within the lease and a few seconds); unref'd. */
  every(intervalMs: number): void {
    this.timer = setInterval(() => void this.rescue(), intervalMs);
    this.timer.unref();
  }

  /** No more rescues; waits for the one running. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async claimAndQueue(): Promise<number> {
    const { pendingPrompts, daemonId, work, folderOf, log } = this.options;
    let claimed;
    try {
      claimed = await pendingPrompts.claimOrphans(daemonId);
    } catch (error) {
      log(`cannot look for queued prompts left by stopped daemons: ${(error as Error).message}`);
      return 0;
    }
    let queued = 0;
    for (const [index, prompt] of claimed.entries()) {
      try {
        // Stored from the blocks of a request the params schema had checked.
        await work.queuePrompt({ sessionId: prompt.sessionId, prompt: prompt.content as ContentBlock[], cwd: await folderOf(prompt.sessionId), jobId: prompt.id });
      } catch (error) {
        const rest = claimed.slice(index).map((p) => p.id);
        log(`cannot queue the ${prompt.queue} prompt ${prompt.id} that daemon ${prompt.daemonId} left for session ${prompt.sessionId} (retried shortly): ${(error as Error).message}`);
        await pendingPrompts.giveBack(rest, daemonId).catch(() => undefined);
        break;
      }
      queued++;
      await pendingPrompts.remove([prompt.id]).catch((error: Error) => log(`queued prompt ${prompt.id} was queued as a turn but stays stored: ${error.message}`));
      log(`daemon ${prompt.daemonId} stopped with a ${prompt.queue} prompt waiting for session ${prompt.sessionId}: queued it as its own turn`);
    }
    return queued;
  }
}
