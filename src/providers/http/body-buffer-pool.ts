/**
 * Memory for large request bodies, reused from one request to the next. A long session's
 * body is megabytes, made afresh for every request: memory the process has not touched yet
 * faults in page by page as the body is copied into it, which cost more than the copy itself
 * (2 ms of a 10,000-message request). One buffer, the largest given back, is kept for the
 * next body that fits; it is given back only once the socket has taken all of its bytes.
 */

/** Smaller bodies come from Node's own allocator: its pool serves them without new pages. */
const pooledFrom = 64 * 1024;
/** A buffer larger than this is not kept: one huge request must not pin its memory for good. */
const keptUpTo = 32 * 1024 * 1024;

let spare: ArrayBuffer | undefined;
/** The memory handed out here: only that is taken back, never a buffer its owner still uses. */
const handedOut = new WeakSet<ArrayBuffer>();

/** A buffer of `length` bytes whose contents are to be overwritten whole. */
export function takeBodyBuffer(length: number): Buffer {
  if (length < pooledFrom) return Buffer.allocUnsafe(length);
  if (spare !== undefined && spare.byteLength >= length) {
    const memory = spare;
    spare = undefined;
    return Buffer.from(memory, 0, length);
  }
  const buffer = Buffer.allocUnsafeSlow(length);
  handedOut.add(buffer.buffer);
  return buffer;
}

/** Hands a body's memory back once nothing will read it again (the request has been written). */
export function giveBackBodyBuffer(body: Buffer): void {
  const memory = body.buffer;
  if (!(memory instanceof ArrayBuffer) || !handedOut.has(memory) || memory === spare || memory.byteLength > keptUpTo) return;
  if (spare === undefined || memory.byteLength > spare.byteLength) spare = memory;
}
