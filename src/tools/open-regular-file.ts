import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { describeFileType } from '../config/describe-file-type.js';
import { ToolError } from './tool-error.js';

/**
 * O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer,
 * which would hold one of libuv's four threadpool threads for good (four such opens stop
 * every file operation of the daemon). O_NOCTTY: a terminal device never becomes ours.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
/** Bytes per read when streaming a file. */
const CHUNK_BYTES = 64 * 1024;

/** An open regular file and its fstat. */
export interface OpenedFile {
  handle: FileHandle;
  info: Stats;
}

/**
 * Opens a workspace file for reading without ever blocking, and keeps it only when it is
 * a regular file: checked with stat before opening (a device is never opened: some act
 * on open, a socket cannot be), and with fstat of what was opened (a swap in between
 * changes nothing). A FIFO, socket, device or directory is refused with a ToolError
 * naming what it is; other errors (ENOENT, EACCES) are thrown as they are.
 */
export async function openRegularFile(file: string, shown: string): Promise<OpenedFile> {
  const before = await stat(file);
  if (!before.isFile()) throw notRegularFile(shown, before);
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
  throw notRegularFile(shown, info);
}

/** The refusal for a path that is not a regular file: what it is, and the way on. */
export function notRegularFile(shown: string, info: Stats): ToolError {
  const fix = info.isDirectory()
    ? 'give the path of a file (ls lists a directory)'
    : 'the file tools read and write only regular files, since this one could block or never end; use bash if you really mean to talk to it';
  return new ToolError(`${shown} is ${describeFileType(info)}, not a regular file: ${fix}.`);
}

/** The whole content of a regular file, opened as openRegularFile does. */
export async function readRegularFile(file: string, shown: string): Promise<Buffer> {
  const { handle } = await openRegularFile(file, shown);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The file's bytes from the start, in chunks, by positional reads (the handle stays open). */
export async function* readChunks(handle: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * For a path handed to ripgrep: rg skips FIFOs and devices while walking a directory, but
 * reads a path it is given itself, whatever it is (a FIFO waits for a writer until the
 * tool times out, /dev/zero never ends). Only regular files and directories pass.
 */
export async function requireSearchable(target: string, shown: string): Promise<void> {
  const info = await stat(target);
  if (!info.isFile() && !info.isDirectory()) throw notRegularFile(shown, info);
}
