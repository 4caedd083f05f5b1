import type { RawData, WebSocket } from 'ws';
import { FrameTooLargeError } from '../../../protocol/wire/frame-too-large-error.js';
import type { FrameChannel, FrameChannelHandlers } from '../wire/framing/frame-channel.js';

/** Sent in a close frame when the peer sends a binary frame. */
export class BinaryFrameError extends Error {}

/**
 * The page's WebSocket as a frame channel: one JSON-RPC message per text frame, both ways.
 * A binary frame is a framing error (answered, then closed); ws itself closes a frame over
 * its maxPayload (the daemon's maxFrameBytes) with 1009 before it is buffered whole.
 */
export class WebSocketFrameChannel implements FrameChannel {
  private closed = false;
  private readonly onMessage = (data: RawData, isBinary: boolean): void => this.receive(data, isBinary);

  constructor(
    private readonly socket: WebSocket,
    private maxFrameBytes: number,
    private readonly handlers: FrameChannelHandlers,
  ) {
    socket.on('message', this.onMessage);
    socket.once('close', () => this.close());
    socket.on('error', () => this.close());
  }

  get queuedBytes(): number {
    return this.socket.bufferedAmount;
  }

  setMaxFrameBytes(limit: number): void {
    this.maxFrameBytes = limit;
  }

  write(body: string): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    this.socket.send(body);
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.off('message', this.onMessage);
    this.handlers.onClose();
  }

  /** A close frame after what is queued. */
  end(): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(1000);
  }

  destroy(): void {
    this.socket.terminate();
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    if (isBinary) return this.fail(new BinaryFrameError('binary frames are not JSON-RPC: send one JSON-RPC message per text frame'));
    if (bytes.length > this.maxFrameBytes) return this.fail(new FrameTooLargeError(this.maxFrameBytes, bytes.length));
    this.handlers.onFrame(bytes.toString('utf8'));
  }

  private fail(error: Error): void {
    this.socket.off('message', this.onMessage);
    this.handlers.onFramingError(error);
  }
}
