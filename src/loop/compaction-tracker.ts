import { CompactionError } from './compaction-error.js';

/** Consecutive failed compactions after which a session stops trying. */
export const MAX_COMPACTION_FAILURES = 3;

/**
 * Counts failed compactions in a row for one session. A summary call that keeps failing
 * (the history no longer fits the window, the vendor refuses) would otherwise cost a
 * request before every turn; after MAX_COMPACTION_FAILURES in a row it is disabled for
 * the rest of the session and the user is told once. A success resets the count.
 */
export class CompactionTracker {
  /** Failures since the last success. */
  private failures = 0;
  private lastError: string | undefined;
  /** True once compaction is off for this session. */
  disabled = false;

  /** Failures in a row so far. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  recordSuccess(): void {
    this.failures = 0;
    this.lastError = undefined;
  }

  /**
   * Counts one failure. Returns the notice text when this failure disabled compaction,
   * so the caller shows it exactly once; undefined otherwise. A summary call the user
   * cancelled is not a failure and is not counted.
   */
  recordFailure(error: unknown): string | undefined {
    if (this.disabled) return undefined;
    if (error instanceof CompactionError && error.aborted) return undefined;
    this.failures++;
    this.lastError = error instanceof Error ? error.message : String(error);
    if (this.failures < MAX_COMPACTION_FAILURES) return undefined;
    this.disabled = true;
    return this.notice;
  }

  /** Why compaction is off, for the user; undefined while it is on. */
  get notice(): string | undefined {
    if (!this.disabled) return undefined;
    return (
      `Automatic compaction is off for this session: it failed ${MAX_COMPACTION_FAILURES} times in a row` +
      (this.lastError !== undefined ? ` (last error: ${this.lastError})` : '') +
      '. The conversation may soon exceed the model\'s context window; start a new session, or switch to a model with a larger window.'
    );
  }
}
