/** Turns a byte stream into whole message bodies (UTF-8 JSON text, not yet parsed). */
export interface FrameDecoder {
  /** Feed bytes; returns every frame completed by them. Throws FrameTooLargeError. */
  push(chunk: Buffer): string[];
}

/** Writes one message body in the connection's framing. */
export type FrameEncoder = (body: string) => Buffer;

export type Framing = 'ndjson' | 'content-length';
