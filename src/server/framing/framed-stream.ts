import type { Readable, Writable } from 'node:stream';
import { createContentLengthDecoder, encodeContentLength } from './content-length-decoder.js';
import { detectFraming } from './detect-framing.js';
import type { FrameDecoder, FrameEncoder } from './frame-decoder.js';
import { createNdjsonDecoder, encodeNdjson } from './ndjson-decoder.js';

export interface FramedStreamHandlers {
  onFrame(body: string): void;
  /** A framing failure (oversized frame, broken header); the stream stops reading. */
  onFramingError(error: Error): void;
  onClose(): void;
}

/**
 * A byte stream pair seen as message bodies. The framing is detected from the first
 * bytes the peer sends and replies use the same framing; until then replies are NDJSON.
 */
export class FramedStream {
  private decoder: FrameDecoder | undefined;
  private encoder: FrameEncoder = encodeNdjson;
  private head: Buffer = Buffer.alloc(0);
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxFrameBytes: number,
    private readonly handlers: FramedStreamHandlers,
  ) {
    input.on('data', (chunk: Buffer) => this.onData(chunk));
    input.on('end', () => this.close());
    input.on('close', () => this.close());
    input.on('error', () => this.close());
    output.on('error', () => this.close());
  }


  /** Queues one message; returns false when the peer is gone. */
  write(body: string): boolean {
    if (this.closed || this.output.destroyed || !this.output.writable) return false;
    this.output.write(this.encoder(body));
    return true;
  }

  /** Stops reading; pending writes are flushed before the output ends. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.removeAllListeners('data');
    this.input.pause();
    this.handlers.onClose();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    try {
      if (!this.decoder) {
        this.head = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
        const framing = detectFraming(this.head);
        if (!framing) return;
        this.decoder =
          framing === 'content-length'
            ? createContentLengthDecoder(this.maxFrameBytes)
            : createNdjsonDecoder(this.maxFrameBytes);
        this.encoder = framing === 'content-length' ? encodeContentLength : encodeNdjson;
        chunk = this.head;
        this.head = Buffer.alloc(0);
      }
      for (const frame of this.decoder.push(chunk)) {
        if (this.closed) return;
        this.handlers.onFrame(frame);
      }
    } catch (error) {
      this.input.removeAllListeners('data');
      this.input.pause();
      this.handlers.onFramingError(error as Error);
    }
  }
}
