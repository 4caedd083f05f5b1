import { StoreError } from './store-error.js';

/**
 * What one store object remembers of the leases it claimed: the daemon it claims for and
 * the epoch of each session's lease. Each write of the store checks the database against
 * it (see cluster-store.ts); a lost lease stays remembered until it is claimed anew, so a
 * write after the loss is refused even once the new owner has released the session.
 */
export class LeaseFence {
  #daemonId: string | null = null;
  readonly #epochs = new Map<string, number>();
  /** Lost leases already reported by a renewal: still fenced, not reported again. */
  readonly #reported = new Set<string>();

  /** The daemon this store claims for; null until it registered or claimed. */
  get daemonId(): string | null {
    return this.#daemonId;
  }

  actAs(daemonId: string): void {
    this.#daemonId = daemonId;
  }

  held(sessionId: string, epoch: number): void {
    this.#epochs.set(sessionId, epoch);
    this.#reported.delete(sessionId);
  }

  released(sessionId: string): void {
    this.#epochs.delete(sessionId);
    this.#reported.delete(sessionId);
  }

  /**
   * The claimed sessions a renewal did not renew with their epoch (`renewed`: session →
   * epoch), each reported once: the daemon stops its turn once, the writes stay fenced.
   * Only leases held with the same epoch since before the renewal was sent (`before`,
   * from claimed()) count: a claim that committed while the renewal ran is not in the rows
   * it updated, yet not lost.
   */
  newlyLost(renewed: ReadonlyMap<string, number>, before: ReadonlyArray<[string, number]>): string[] {
    const lost = before
      .filter(([sessionId, epoch]) => this.#epochs.get(sessionId) === epoch && renewed.get(sessionId) !== epoch && !this.#reported.has(sessionId))
      .map(([sessionId]) => sessionId);
    for (const sessionId of lost) this.#reported.add(sessionId);
    return lost.sort();
  }

  /** The epoch this store claimed the session with, if it did. */
  epochOf(sessionId: string): number | null {
    return this.#epochs.get(sessionId) ?? null;
  }

  /** Every claimed session and its epoch. */
  claimed(): Array<[string, number]> {
    return [...this.#epochs];
  }

  /** The error a write for the session gets when the lease is not (or no longer) this daemon's. */
  refusal(sessionId: string, owner: string | null): StoreError {
    const session = `session ${JSON.stringify(sessionId)}`;
    if (this.epochOf(sessionId) !== null) {
      const now = owner === null ? 'was taken over by another daemon (and is idle now)' : `is now run by daemon ${owner}`;
      return new StoreError(
        'fenced',
        `${session} ${now}; this daemon (${this.#daemonId ?? 'unregistered'}) lost its lease (not renewed in time), so its writes to the session are refused; ` +
          'the session continues there: send the next prompt again and it runs once the session is free',
      );
    }
    return new StoreError(
      'fenced',
      `${session} is run by daemon ${owner ?? 'another daemon'}, which holds its lease; this daemon holds none, so it may not write to the session; ` +
        'wait for the turn there to end (or send the prompt to that daemon), then try again',
    );
  }
}
