import type { FileHandle } from 'node:fs/promises';

/** Bytes per read when streaming a file. */
const CHUNK_BYTES = 64 * 1024;

/** An open file's bytes from the start, in chunks, by positional reads (the handle stays open). */
export async function* readChunks(handle: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
