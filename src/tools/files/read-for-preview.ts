import { openIfRegular } from './open-if-regular.js';

/** Larger files, before or after the change, are not previewed: a permission question should stay a small message. */
export const PREVIEW_MAX_BYTES = 256 * 1024;

/** Whether a proposed text is small enough to go in a permission question's diff. */
export function fitsPreview(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') <= PREVIEW_MAX_BYTES;
}

/**
 * A file's text for the diff a permission question shows before a write: `null` when the
 * file does not exist (the call would create it), `undefined` when it cannot be shown
 * (not a regular file, above PREVIEW_MAX_BYTES, or not UTF-8 text). The open never
 * blocks (a FIFO has no diff rather than a writer to wait for) and at most
 * PREVIEW_MAX_BYTES + 1 bytes are read, whatever the file claims or becomes.
 */
export async function readForPreview(file: string): Promise<string | null | undefined> {
  const opened = await openIfRegular(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
  if (!opened?.handle) return opened === null ? null : undefined;
  const { handle, info } = opened;
  try {
    if (info.size > PREVIEW_MAX_BYTES) return undefined;
    const buffer = Buffer.alloc(PREVIEW_MAX_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length <= PREVIEW_MAX_BYTES; length += n) {
      n = (await handle.read(buffer, length, buffer.length - length, length)).bytesRead;
    }
    if (length > PREVIEW_MAX_BYTES) return undefined;
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buffer.subarray(0, length));
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
