/**
 * Lets the calls of one session at a time through to a server that serves several
 * sessions (a server of the user's config). MCP gives a client no link from a server's own
 * request (sampling, a form) to the call it came during, so while only one session's calls
 * run, such a request belongs to that session for certain: it is asked of that session's
 * user, in its mode, and billed to it. Calls of the same session still run side by side;
 * another session's call waits its turn, first come first served.
 */
export class OneSessionAtATime {
  private holder: string | undefined;
  private running = 0;
  private readonly waiting: Array<{ sessionId: string; admit: () => void }> = [];

  /** Resolves when calls of `sessionId` may run; rejects if `signal` aborts first. */
  enter(sessionId: string, signal: AbortSignal): Promise<void> {
    // Joining the running session is fair only while nobody of another session waits.
    if (this.holder === undefined || (this.holder === sessionId && this.waiting.length === 0)) {
      this.admit(sessionId);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = { sessionId, admit: () => (signal.removeEventListener('abort', onAbort), resolve()) };
      const onAbort = (): void => {
        this.waiting.splice(this.waiting.indexOf(entry), 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** One call of the session holding the server ended. */
  leave(): void {
    this.running -= 1;
    if (this.running > 0) return;
    this.holder = undefined;
    const next = this.waiting[0];
    if (!next) return;
    // The next session's waiting calls all go in together.
    for (const entry of this.waiting.filter((w) => w.sessionId === next.sessionId)) {
      this.waiting.splice(this.waiting.indexOf(entry), 1);
      this.admit(entry.sessionId);
      entry.admit();
    }
  }

  private admit(sessionId: string): void {
    this.holder = sessionId;
    this.running += 1;
  }
}
