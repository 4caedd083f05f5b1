import { commonStart } from '../common-start.js';

/**
 * The encoded JSON of the last run of remembered items an array of one series carried (a
 * session's request after request), joined by commas in one buffer. The next array of the
 * series mostly repeats that run, and the repeated start is copied from here in one piece
 * instead of item by item, or sent as it is. Items are compared by identity: a remembered item
 * never changes. While a body sent from the run's bytes is being written (lent), the run
 * writes its changes into new memory instead of over them.
 */
export class EncodedRun {
  /** The run's items, in order (a copy: the caller's array may change later). */
  private items: unknown[] = [];
  /** Where each item's JSON ends in `bytes`; the comma before the next item follows it. */
  private ends: number[] = [];
  private bytes: Buffer = Buffer.alloc(0);
  /** Bodies holding a part of `bytes` that the socket has not taken yet. */
  private lent = 0;

  /** Marks the run's bytes as read by a body in flight; the function returned ends that (once). */
  lend(): () => void {
    this.lent++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.lent--;
    };
  }

  /** How many of `array`'s items from `from` on are the run's first ones. */
  shared(array: readonly unknown[], from: number): number {
    return commonStart(this.items, array, from);
  }

  /** The encoded first `count` items, commas between them; they stay as they are while lent, or while `replace` keeps them. */
  start(count: number): Buffer {
    return this.bytes.subarray(0, count === 0 ? 0 : this.ends[count - 1]);
  }

  /**
   * The run is now its first `kept` items followed by `added` (each with its encoded JSON).
   * The kept bytes stay where they are, so a buffer `start(kept)` handed out remains valid.
   */
  replace(kept: number, added: ReadonlyArray<{ item: unknown; bytes: Buffer }>): void {
    let at = kept === 0 ? 0 : this.ends[kept - 1]!;
    let needed = at;
    for (const { bytes } of added) needed += bytes.length + 1;
    // Items dropped from the end (a changed message) would be written over: not while a body reads them.
    const overwrites = kept < this.items.length && this.lent > 0;
    if (needed > this.bytes.length || overwrites) {
      // Grown with room to spare, as a session grows by a few messages a request.
      const grown = Buffer.allocUnsafe(Math.ceil(needed * 1.25));
      this.bytes.copy(grown, 0, 0, at);
      this.bytes = grown;
    }
    this.items.length = kept;
    this.ends.length = kept;
    for (const { item, bytes } of added) {
      if (this.items.length > 0) this.bytes[at++] = 0x2c;
      this.bytes.set(bytes, at);
      at += bytes.length;
      this.items.push(item);
      this.ends.push(at);
    }
  }
}
