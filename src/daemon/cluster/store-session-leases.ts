import type { SessionLeases } from '../../session/session-leases.js';
import type { ClusterStore } from '../../store/cluster-store.js';

/**
 * SessionLeases on the store's leases for one daemon. A session's claims and releases run
 * one after another, so a release of the turn that ended cannot overtake the claim of the
 * next turn. While another live daemon holds the lease, the claim is retried every
 * tenth of a lease (at least 50 ms, at most a second): the holder releases it when its
 * session goes idle, or it expires when the holder died.
 */
export class StoreSessionLeases implements SessionLeases {
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Sessions whose lease this daemon claimed and has not given up: their turns run here. */
  private readonly held = new Set<string>();
  private readonly retryMs: number;

  constructor(
    private readonly cluster: ClusterStore,
    private readonly daemonId: string,
    private readonly leaseMs: number,
    private readonly log: (line: string) => void,
  ) {
    this.retryMs = Math.min(1000, Math.max(50, Math.round(leaseMs / 10)));
  }

  acquire(sessionId: string, signal: AbortSignal, waiting: (holder: string) => void): Promise<void> {
    return this.inTurn(sessionId, async () => {
      let told = false;
      for (;;) {
        signal.throwIfAborted();
        const claim = await this.cluster.claimSession(sessionId, this.daemonId, this.leaseMs);
        if ('epoch' in claim) {
          this.held.add(sessionId);
          return;
        }
        if (!told) {
          told = true;
          waiting(claim.heldBy);
        }
        await sleep(this.retryMs, signal);
      }
    });
  }

  release(sessionId: string): void {
    this.held.delete(sessionId);
    void this.inTurn(sessionId, () => this.cluster.releaseSession(sessionId, this.daemonId)).catch((error: Error) =>
      this.log(`session ${sessionId}: could not release its lease (it expires by itself): ${error.message}`),
    );
  }

  /** Whether this daemon holds the session's lease (claimed, not yet given up or lost). */
  holds(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /** A lease the store says another daemon took: its turns no longer run here. */
  lost(sessionId: string): void {
    this.held.delete(sessionId);
  }

  async heldElsewhere(sessionId: string): Promise<string | undefined> {
    const lease = await this.cluster.leaseOf(sessionId);
    return lease?.live && lease.owner !== this.daemonId ? (lease.owner ?? undefined) : undefined;
  }

  /** Resolves once every claim and release asked for so far has settled (shutdown waits for them). */
  async settled(): Promise<void> {
    await Promise.all([...this.chains.values()].map((chain) => chain.catch(() => undefined)));
  }

  private inTurn<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(sessionId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    const settled = next.catch(() => undefined);
    this.chains.set(sessionId, settled);
    void settled.then(() => {
      if (this.chains.get(sessionId) === settled) this.chains.delete(sessionId);
    });
    return next;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', aborted, { once: true });
  });
}
