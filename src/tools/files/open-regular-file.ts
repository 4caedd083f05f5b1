import type { Stats } from 'node:fs';
import { stat, type FileHandle } from 'node:fs/promises';
import { describeFileType } from '../../config/describe-file-type.js';
import { openIfRegular } from './open-if-regular.js';
import { ToolError } from '../tool-error.js';

/** An open regular file and its fstat. */
export interface OpenedFile {
  handle: FileHandle;
  info: Stats;
}

/**
 * Opens a workspace file for a tool, as openIfRegular does (never blocking, regular files
 * only); a FIFO, socket, device or directory is refused with a ToolError naming what it
 * is. Other errors (ENOENT, EACCES) are thrown as they are.
 */
export async function openRegularFile(file: string, shown: string): Promise<OpenedFile> {
  const opened = await openIfRegular(file);
  if (opened.handle === undefined) throw notRegularFile(shown, opened.info);
  return { handle: opened.handle, info: opened.info };
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

/**
 * For a path handed to ripgrep: rg skips FIFOs and devices while walking a directory, but
 * reads a path it is given itself, whatever it is (a FIFO waits for a writer until the
 * tool times out, /dev/zero never ends). Only regular files and directories pass.
 */
export async function requireSearchable(target: string, shown: string): Promise<void> {
  const info = await stat(target);
  if (!info.isFile() && !info.isDirectory()) throw notRegularFile(shown, info);
}
