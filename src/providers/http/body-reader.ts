import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';

/**
 * A response body read as it arrives, in flowing mode ('data' events) into a small queue:
 * the chunks, end and errors `body.iterator()` gives (the end and errors through the same
 * `finished`), with less work between a chunk's arrival and its reader — no async
 * generator, no `read()` and no tick per chunk. A streamed answer arrives one event per
 * read from a real vendor, so this runs for every event. While more than the body's
 * high-water mark waits unread, the body is paused.
 */
export class BodyReader {
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private paused = false;
  /** Set once the body is over: `null` when it ended, the error otherwise. */
  private outcome: { error: unknown } | null | undefined;
  private wake: (() => void) | undefined;
  private readonly onData = (chunk: Buffer): void => {
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (!this.paused && this.queuedBytes > this.body.readableHighWaterMark) {
      this.paused = true;
      this.body.pause();
    }
    this.wakeReader();
  };

  constructor(private readonly body: IncomingMessage) {
    body.on('data', this.onData);
    // Its listeners stay: an error the body emits later has a listener, as under its iterator.
    finished(body, { writable: false }, (error) => {
      this.outcome ??= error ? { error } : null;
      this.wakeReader();
    });
  }

  /**
   * Every byte waiting, as one chunk (as `read()` gives the whole buffer: the events of one
   * read of the socket, often several HTTP chunks, stay together and their deltas are
   * joined downstream); `null` once the body ended, `undefined` when the reader has to wait
   * (`arrival`); throws the body's error. A body destroyed before its end (an abort, the
   * idle watchdog) gives no more bytes, as its iterator does; one that ended (and was
   * destroyed after) still gives those read before its end.
   */
  take(): Buffer | null | undefined {
    const cutOff = this.body.destroyed && !this.body.readableEnded;
    if (this.queue.length > 0 && !cutOff) {
      const chunk = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue, this.queuedBytes);
      this.queue.length = 0;
      this.queuedBytes = 0;
      if (this.paused) {
        this.paused = false;
        this.body.resume();
      }
      return chunk;
    }
    if (this.outcome === undefined) return undefined;
    if (this.outcome === null) return null;
    throw this.outcome.error;
  }

  /** Resolves when a chunk, the end or an error has come. */
  arrival(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** Stops reading; the body is left to whoever takes it over (releaseBody), unread chunks dropped. */
  detach(): void {
    this.body.off('data', this.onData);
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.wakeReader();
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
