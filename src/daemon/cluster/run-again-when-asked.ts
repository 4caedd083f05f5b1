/**
 * Runs `work` when asked, one run at a time: asked while it runs, it runs once more after
 * (however often it was asked meanwhile). For fetch loops woken by notifications, timers
 * and freed slots at once, which must neither overlap nor miss the last wake-up.
 */
export class RunAgainWhenAsked {
  private running = false;
  /** Asked while running: one more run follows. Readable and settable by a run that must not count its own wake-ups. */
  again = false;

  constructor(private readonly work: () => Promise<void>) {}

  ask(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.work()
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
        if (!this.again) return;
        this.again = false;
        this.ask();
      });
  }
}
