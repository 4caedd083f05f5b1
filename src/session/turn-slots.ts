/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** Runs `work`; when it throws, the slot a caller brought (if any) is given back first. */
export function releasingOnThrow<T>(slot: ReleaseSlot | undefined, work: () => T): T {
  try {
    return work();
  } catch (error) {
    slot?.();
    throw error;
  }
}

/**
 * The turns one daemon runs at once (`cluster.concurrency`), interactive and headless
 * together: a turn takes a slot before it starts and gives it back when it ends. A prompt
 * beyond the limit waits in arrival order for a slot — it is never refused — and a queued
 * job is taken only while a slot is free (see `free` and `onFree`). Sub-agents run inside
 * their parent's turn and take none, so a limit of 1 cannot deadlock a turn on its own child.
 */
export class TurnSlots {
  private used = 0;
  private readonly waiting: Array<{ grant: (release: ReleaseSlot) => void }> = [];
  private readonly freeListeners = new Set<() => void>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`cluster.concurrency must be a whole number of turns, at least 1 (got ${limit})`);
  }

  /** Slots nobody holds and nobody waits for: what a queue may take jobs for now. */
  get free(): number {
    return Math.max(0, this.limit - this.used - this.waiting.length);
  }

  /** Turns running now. */
  get running(): number {
    return this.used;
  }

  /** The most turns that run at once. */
  get capacity(): number {
    return this.limit;
  }

  /** A slot now, if one is free and nobody waits before the caller. */
  tryAcquire(): ReleaseSlot | undefined {
    if (this.used >= this.limit || this.waiting.length > 0) return undefined;
    this.used++;
    return this.releaser();
  }

  /** A slot, once one is free (in arrival order); rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const entry = {
        grant: (release: ReleaseSlot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason as Error);
        this.tellFree();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Told whenever a slot may have come free; returns the unsubscribe function. */
  onFree(listener: () => void): () => void {
    this.freeListeners.add(listener);
    return () => this.freeListeners.delete(listener);
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // Handed straight to the next waiter: the count stays, so no job slips in between.
      if (next) next.grant(this.releaser());
      else {
        this.used--;
        this.tellFree();
      }
    };
  }

  private tellFree(): void {
    if (this.free === 0) return;
    for (const listener of this.freeListeners) listener();
  }
}
