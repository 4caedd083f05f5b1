/** Refusals logged per minute; any web page open in the browser can make it send requests here. */
const MAX_LINES_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

/**
 * Logs refused requests without letting a page that sends thousands (an `<img>` loop, a
 * rebinding script) flood the log: ten lines a minute, then one line saying how many more
 * were refused, when the next minute starts.
 */
export class RefusalLog {
  private windowStart = Number.NEGATIVE_INFINITY;
  private lines = 0;
  private dropped = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  refused(line: string): void {
    const now = this.now();
    if (now - this.windowStart >= MINUTE_MS) {
      if (this.dropped > 0) this.log(`http: ${this.dropped} more refusal(s) in the last minute not logged`);
      this.windowStart = now;
      this.lines = 0;
      this.dropped = 0;
    }
    if (this.lines >= MAX_LINES_PER_MINUTE) {
      this.dropped++;
      return;
    }
    this.lines++;
    this.log(line);
  }
}
