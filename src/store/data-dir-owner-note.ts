import fs from 'node:fs';
import path from 'node:path';

// Apart from the lock (which loads SQLite), so that `agentd acp` can tell that nobody owns
// the data directory from this note alone and start the daemon at once.

/** Who owns a data directory, as its owner wrote it down beside the lock (for messages only). */
export interface DataDirOwner {
  pid: number;
  /** When the owner took the lock, ISO 8601 UTC. */
  startedAt: string;
  /** The Unix socket it serves, if any: other agentd commands talk to it there. */
  socketPath: string | null;
  /** The TCP address it listens on, if any (`HOST:PORT`). */
  listen: string | null;
  /**
   * How long it stays with nothing to do before it exits, when it was started on demand
   * (`agentd acp`, a client's connect); null for a daemon that runs until stopped.
   */
  idleExitMs: number | null;
  /** The file it writes its log to; null when it logs to its stderr (wherever its starter sent that). */
  logFile: string | null;
}

export const OWNER_FILE = 'agentd.owner.json';

/**
 * Whether the owner's note names a process that is running. The note is removed when its
 * owner releases the lock, and a crashed owner's names a dead pid; a false answer may only
 * be wrong for the moment between an owner taking the lock and writing its note.
 */
export function ownerNoteNamesLiveProcess(dataDir: string): boolean {
  const owner = parseOwner(dataDir);
  return owner !== undefined && isAlive(owner.pid);
}

export function parseOwner(dataDir: string): DataDirOwner | undefined {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8')) as Partial<DataDirOwner>;
    if (typeof raw.pid !== 'number' || typeof raw.startedAt !== 'string') return undefined;
    const idleExitMs = typeof raw.idleExitMs === 'number' ? raw.idleExitMs : null;
    const logFile = typeof raw.logFile === 'string' ? raw.logFile : null;
    return { pid: raw.pid, startedAt: raw.startedAt, socketPath: raw.socketPath ?? null, listen: raw.listen ?? null, idleExitMs, logFile };
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

