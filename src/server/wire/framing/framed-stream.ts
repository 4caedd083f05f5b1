import type { Readable, Writable } from 'node:stream';
import { createContentLengthDecoder, encodeContentLength } from './content-length-decoder.js';
import { detectFraming } from './detect-framing.js';
import type { FrameDecoder, FrameEncoder } from '../../../../protocol/wire/frame-decoder.js';
import { FrameTooLargeError } from '../../../../protocol/wire/frame-too-large-error.js';
import { createNdjsonDecoder, encodeNdjson } from '../../../../protocol/wire/ndjson-decoder.js';

import type { FrameChannel, FrameChannelHandlers } from './frame-channel.js';

/**
 * A byte stream pair seen as message bodies. The framing is detected from the first
 * bytes the peer sends and replies use the same framing; until then replies are NDJSON.
 */
export class FramedStream implements FrameChannel {
  private decoder: FrameDecoder | undefined;
  private encoder: FrameEncoder = encodeNdjson;
  private head: Buffer = Buffer.alloc(0);
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private maxFrameBytes: number,
    private readonly handlers: FrameChannelHandlers,
  ) {
    input.on('data', (chunk: Buffer) => this.onData(chunk));
    input.on('end', () => this.close());
    input.on('close', () => this.close());
    input.on('error', () => this.close());
    output.on('error', () => this.close());
  }

  /** Changes the frame limit from the next byte on (a TCP client that authenticated gets the full one). */
  setMaxFrameBytes(limit: number): void {
    this.maxFrameBytes = limit;
  }

  /** Queues one message; returns false when the peer is gone. */
  write(body: string): boolean {
    if (this.closed || this.output.destroyed || !this.output.writable) return false;
    this.output.write(this.encoder(body));
    return true;
  }

  get queuedBytes(): number {
    return this.output.writableLength;
  }

  /** Ends the output once what is queued has been written. */
  end(): void {
    if (!this.output.writableEnded) this.output.end();
  }

  destroy(): void {
    this.output.destroy();
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
        if (!framing) {
          // Only whitespace so far: it may not pile up without limit either.
          if (this.head.length > this.maxFrameBytes) throw new FrameTooLargeError(this.maxFrameBytes, this.head.length);
          return;
        }
        const limit = (): number => this.maxFrameBytes;
        this.decoder = framing === 'content-length' ? createContentLengthDecoder(limit) : createNdjsonDecoder(limit);
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
