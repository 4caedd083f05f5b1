import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { openIfRegular } from './open-if-regular.js';
import { readChunks } from './read-chunks.js';

/** What was known about a file when the model last read (or wrote) it. */
export interface FileSnapshot {
  /** Modification time in ms, from `fs.stat`. */
  mtimeMs: number;
  /** Size in bytes. */
  size: number;
  /** SHA-256 of the content, hex; decides when only the mtime moved (e.g. `touch`). */
  hash: string;
}

/** Why a write must not go ahead; `undefined` from `checkUnchanged` means it may. */
export type StaleReason = 'not-read' | 'changed' | 'deleted';

/**
 * SHA-256 of a file, streamed so large files do not sit in memory; opened without
 * blocking, and undefined when the path is not a regular file (a FIFO would never end).
 */
export async function hashFile(filePath: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  const { handle } = await openIfRegular(filePath);
  if (handle === undefined) return undefined;
  try {
    for await (const chunk of readChunks(handle)) hash.update(chunk);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** Takes a snapshot of a file as it is on disk now. */
export async function snapshotFile(filePath: string): Promise<FileSnapshot> {
  const info = await stat(filePath);
  const hash = await hashFile(filePath);
  if (hash === undefined) throw new Error(`${filePath} is not a regular file`);
  return { mtimeMs: info.mtimeMs, size: info.size, hash };
}

/**
 * Per-session record of which files the model has seen, so write and edit can refuse to
 * clobber a file the model never read or that changed on disk since (the rule Claude Code
 * and Codex apply). Keys are real (symlink-free) absolute paths.
 */
export class FileStateTracker {
  private readonly files = new Map<string, FileSnapshot>();

  /** Remembers the file as the model now knows it (after a read, write or edit). */
  record(realPath: string, snapshot: FileSnapshot): void {
    this.files.set(realPath, snapshot);
  }

  /** The last snapshot of a file, if the model has seen it. */
  get(realPath: string): FileSnapshot | undefined {
    return this.files.get(realPath);
  }

  /** Forgets a file (e.g. after it was deleted). */
  forget(realPath: string): void {
    this.files.delete(realPath);
  }

  /** Whether the file is still exactly as the model last saw it. */
  async checkUnchanged(realPath: string): Promise<StaleReason | undefined> {
    const known = this.files.get(realPath);
    if (!known) return 'not-read';
    let info;
    try {
      info = await stat(realPath);
    } catch {
      return 'deleted';
    }
    if (info.mtimeMs === known.mtimeMs && info.size === known.size) return undefined;
    if (info.size !== known.size) return 'changed';
    // A FIFO or device where the file was is a change (and is never read).
    return (await hashFile(realPath)) === known.hash ? undefined : 'changed';
  }
}
