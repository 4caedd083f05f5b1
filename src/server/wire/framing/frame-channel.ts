/** What a frame channel tells its connection. */
export interface FrameChannelHandlers {
  onFrame(body: string): void;
  /** A framing failure (oversized frame, broken header, a frame of the wrong kind); the channel stops reading. */
  onFramingError(error: Error): void;
  onClose(): void;
}

/**
 * Whole JSON-RPC message bodies in and out, whatever carries them: a byte stream with
 * NDJSON or Content-Length framing (FramedStream), or a WebSocket whose text frames are
 * the messages. JsonRpcConnection sits on this, so envelope checks, limits and dispatch
 * are the same for every transport.
 */
export interface FrameChannel {
  /** Queues one message body; returns false when the peer is gone. */
  write(body: string): boolean;
  /** Changes the frame limit from the next frame on (a TCP client that authenticated gets the full one). */
  setMaxFrameBytes(limit: number): void;
  /** Output queued for the peer and not yet taken by it. */
  readonly queuedBytes: number;
  /** Stops reading and tells onClose, once. */
  close(): void;
  /** Ends the output once what is queued has been written. */
  end(): void;
  /** Drops the peer at once (it stopped reading). */
  destroy(): void;
}

/** Opens a channel that reports to the given handlers. */
export type OpenFrameChannel = (handlers: FrameChannelHandlers) => FrameChannel;
