/**
 * A timer that fires when a stream goes quiet. It is armed only while the reader waits
 * for the next chunk, so a slow consumer downstream never looks like a stalled server.
 */
export interface IdleWatchdog {
  /** Start (or restart) the countdown: the reader is now waiting for bytes. */
  arm(): void;
  /** Stop the countdown: bytes arrived, or the reader is busy elsewhere. */
  disarm(): void;
  /** Stop for good: the stream is over and no timer may be left behind. */
  stop(): void;
  /** True once the countdown ran out; it never fires twice. */
  readonly fired: boolean;
}

/**
 * Create a watchdog calling `onIdle` once when it stays armed for `idleMs` without a
 * `disarm`. postStream destroys the response body from `onIdle`, which surfaces as a
 * `timeout` ProviderError to whoever is reading.
 *
 * The reader arms and disarms it around every chunk of the body, so arming only notes the
 * time: the one timer, when it comes due, checks how long the watchdog has been armed and
 * waits out the rest (a timer set and cleared per chunk cost more than the chunk's own parse).
 */
export function createIdleWatchdog(idleMs: number, onIdle: () => void): IdleWatchdog {
  let timer: NodeJS.Timeout | undefined;
  let armed = false;
  let armedAt = 0;
  let fired = false;
  const due = (): void => {
    timer = undefined;
    if (!armed) return;
    const left = armedAt + idleMs - performance.now();
    if (left > 0) {
      timer = setTimeout(due, Math.ceil(left));
      return;
    }
    fired = true;
    armed = false;
    onIdle();
  };
  return {
    arm() {
      if (fired) return;
      armed = true;
      armedAt = performance.now();
      timer ??= setTimeout(due, idleMs);
    },
    disarm() {
      armed = false;
    },
    stop() {
      armed = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
    get fired() {
      return fired;
    },
  };
}
