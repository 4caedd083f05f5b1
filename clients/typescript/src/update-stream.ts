/**
 * A queue read as an async iterator: pushed values wait until read, a reader waits until
 * one is pushed, and `end` lets readers finish once the queue is drained. One stream per
 * reader; updates that arrive before anyone reads are kept, so none is lost.
 */
export class UpdateStream<T> implements AsyncIterable<T> {
  private readonly queued: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  push(value: T): void {
    if (this.ended) return;
    const reader = this.waiting;
    if (reader) {
      this.waiting = undefined;
      reader({ value, done: false });
    } else {
      this.queued.push(value);
    }
  }

  end(): void {
    this.ended = true;
    const reader = this.waiting;
    this.waiting = undefined;
    reader?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.queued.length > 0) return Promise.resolve({ value: this.queued.shift()!, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
