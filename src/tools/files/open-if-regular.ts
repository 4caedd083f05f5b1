import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

/**
 * O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer,
 * which would hold one of libuv's four threadpool threads for good (four such opens stop
 * every file operation of the daemon). O_NOCTTY: a terminal device never becomes ours.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A regular file, open, with its fstat; or, without a handle, what was found instead. */
export type OpenIfRegular = { handle: FileHandle; info: Stats } | { handle?: undefined; info: Stats };

/**
 * Opens a workspace file for reading without ever blocking, and only when it is a regular
 * file: checked with stat before opening (a device is never opened: some act on open, a
 * socket cannot be), and with fstat of what was opened (a swap in between changes
 * nothing). Otherwise nothing stays open and `info` says what the path is. Errors
 * (ENOENT, EACCES) are thrown as they are.
 */
export async function openIfRegular(file: string): Promise<OpenIfRegular> {
  const before = await stat(file);
  if (!before.isFile()) return { info: before };
  const handle = await open(file, OPEN_FLAGS);
  let info: Stats;
  try {
    info = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (info.isFile()) return { handle, info };
  await handle.close();
  return { info };
}
