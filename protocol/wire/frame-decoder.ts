/** Turns a byte stream into whole message bodies (UTF-8 JSON text, not yet parsed). */
export interface FrameDecoder {
  /** Feed bytes; returns every frame completed by them. Throws FrameTooLargeError. */
  push(chunk: Buffer): string[];
}

/** Writes one message body in the connection's framing. */
export type FrameEncoder = (body: string) => Buffer;

export type Framing = 'ndjson' | 'content-length';

/** A frame size limit: fixed, or read at each check (it rises once a TCP client authenticates). */
export type FrameLimit = number | (() => number);

export function currentLimit(limit: FrameLimit): number {
  return typeof limit === 'number' ? limit : limit();
}
