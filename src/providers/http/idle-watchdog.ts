/**
 * A timer that fires when a stream goes quiet. It is armed only while the reader waits
 * for the next chunk, so a slow consumer downstream never looks like a stalled server.
 */
export interface IdleWatchdog {
  /** Start (or restart) the countdown: the reader is now waiting for bytes. */
  arm(): void;
  /** Stop the countdown: bytes arrived, or the reader is busy elsewhere. */
  disarm(): void;
  /** True once the countdown ran out; it never fires twice. */
  readonly fired: boolean;
}

/**
 * Create a watchdog calling `onIdle` once when it stays armed for `idleMs` without a
 * `disarm`. postStream destroys the response body from `onIdle`, which surfaces as a
 * `timeout` ProviderError to whoever is reading.
 */
export function createIdleWatchdog(idleMs: number, onIdle: () => void): IdleWatchdog {
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  return {
    arm() {
      if (fired) return;
      if (timer === undefined) {
        timer = setTimeout(() => {
          fired = true;
          timer = undefined;
          onIdle();
        }, idleMs);
      } else {
        timer.refresh();
      }
    },
    disarm() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
    get fired() {
      return fired;
    },
  };
}
