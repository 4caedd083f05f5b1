import { open } from 'node:fs/promises';

/** Larger files, before or after the change, are not previewed: a permission question should stay a small message. */
export const PREVIEW_MAX_BYTES = 256 * 1024;

/** Whether a proposed text is small enough to go in a permission question's diff. */
export function fitsPreview(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') <= PREVIEW_MAX_BYTES;
}

/**
 * A file's text for the diff a permission question shows before a write: `null` when the
 * file does not exist (the call would create it), `undefined` when it cannot be shown
 * (not a regular file, above PREVIEW_MAX_BYTES, or not UTF-8 text).
 */
export async function readForPreview(file: string): Promise<string | null | undefined> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
  if (!handle) return handle;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > PREVIEW_MAX_BYTES) return undefined;
    const bytes = await handle.readFile();
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
