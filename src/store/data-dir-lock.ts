import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { isAlive, OWNER_FILE, parseOwner, type DataDirOwner } from './data-dir-owner-note.js';

export type { DataDirOwner } from './data-dir-owner-note.js';

/** The lock on a data directory, held until `release` or until the process dies. */
export interface DataDirLock {
  readonly dataDir: string;
  /** Records what the owner serves, for the messages of processes that find the lock taken. */
  announce(serving: { socketPath?: string | null; listen?: string | null; idleExitMs?: number | null; logFile?: string | null }): void;
  release(): void;
}

export type LockAttempt = { kind: 'acquired'; lock: DataDirLock } | { kind: 'held'; owner: DataDirOwner | undefined };

const LOCK_FILE = 'agentd.lock';

/**
 * Locks this process holds, by lock file. POSIX drops all of a process's locks on a file
 * when any descriptor of it closes, so a second attempt from this process must not open
 * (and close) the file again: it is answered from here.
 */
const heldHere = new Map<string, DataDirOwner>();

/**
 * Takes the data directory's lock, or says who holds it. The lock is a small SQLite file
 * held with `locking_mode=EXCLUSIVE` after a write: SQLite keeps its fcntl lock until the
 * connection closes, and the kernel drops it when the process dies, so a crashed owner
 * never leaves a stale lock behind (no pid guessing). Connections in the same process
 * conflict too, as SQLite tracks its locks per file, not per process. `probe` (doctor,
 * acp) only looks: an acquired lock is meant to be released at once and records no owner.
 */
export function tryLockDataDir(dataDir: string, options: { probe?: boolean } = {}): LockAttempt {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(fs.realpathSync(dataDir), LOCK_FILE);
  const mine = heldHere.get(file);
  if (mine) return { kind: 'held', owner: { ...mine } };
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    // The write is only there to take the lock: nothing in the file needs to survive a crash, so no journal and no fsync (~5 ms).
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(`BEGIN EXCLUSIVE;
      CREATE TABLE IF NOT EXISTS lock_owner (id INTEGER PRIMARY KEY, pid INTEGER NOT NULL);
      INSERT OR REPLACE INTO lock_owner (id, pid) VALUES (1, ${process.pid});
      COMMIT;`);
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY') || (error as { code?: string }).code?.startsWith('SQLITE_LOCKED')) {
      return { kind: 'held', owner: readOwner(dataDir) };
    }
    throw new Error(`cannot take the lock ${file}: ${(error as Error).message}; check that the data directory is writable`, { cause: error });
  }
  const owner: DataDirOwner = { pid: process.pid, startedAt: new Date().toISOString(), socketPath: null, listen: null, idleExitMs: null, logFile: null };
  if (!options.probe) writeOwner(dataDir, owner);
  heldHere.set(file, owner);
  let released = false;
  return {
    kind: 'acquired',
    lock: {
      dataDir,
      announce(serving) {
        if (released || options.probe) return;
        if (serving.socketPath !== undefined) owner.socketPath = serving.socketPath;
        if (serving.listen !== undefined) owner.listen = serving.listen;
        if (serving.idleExitMs !== undefined) owner.idleExitMs = serving.idleExitMs;
        if (serving.logFile !== undefined) owner.logFile = serving.logFile;
        writeOwner(dataDir, owner);
      },
      release() {
        if (released) return;
        released = true;
        heldHere.delete(file);
        if (!options.probe) fs.rmSync(path.join(dataDir, OWNER_FILE), { force: true });
        db.close();
      },
    },
  };
}

/** Takes the lock or throws DataDirBusyError naming the owner. */
export function lockDataDir(dataDir: string): DataDirLock {
  const attempt = tryLockDataDir(dataDir);
  if (attempt.kind === 'held') throw new DataDirBusyError(dataDir, attempt.owner);
  return attempt.lock;
}

/** Another process owns the data directory. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: DataDirOwner | undefined,
  ) {
    super(`${describeOwner(dataDir, owner)}; ${howToConnect(owner)}`);
    this.name = 'DataDirBusyError';
  }
}

/** "another agentd (pid 123, started …, serving …) owns the data directory D". */
export function describeOwner(dataDir: string, owner: DataDirOwner | undefined): string {
  if (!owner) return `another agentd owns the data directory ${dataDir} (its pid is not recorded yet)`;
  const serving = [owner.socketPath ? `socket ${owner.socketPath}` : undefined, owner.listen ? `tcp ${owner.listen}` : undefined].filter(Boolean);
  const how = serving.length > 0 ? `serving ${serving.join(' and ')}` : 'serving one client on stdio';
  return `another agentd (pid ${owner.pid}, started ${owner.startedAt}, ${how}) owns the data directory ${dataDir}`;
}

function howToConnect(owner: DataDirOwner | undefined): string {
  const stop = owner ? `stop it (kill ${owner.pid})` : 'stop it';
  if (owner?.socketPath) return `connect to it with \`agentd acp --socket ${owner.socketPath}\`, or ${stop} first`;
  return `only one agentd may use a data directory at a time: run the shared daemon with \`agentd serve --socket\` so other commands can connect to it, ${stop} first, or set AGENTD_HOME to another folder`;
}

/**
 * The owner file is written right after the lock is taken, so a reader that finds the
 * lock held may briefly see no file (or the previous owner's); it waits a moment for it.
 */
function readOwner(dataDir: string): DataDirOwner | undefined {
  const deadline = Date.now() + 1000;
  for (;;) {
    const owner = parseOwner(dataDir);
    if ((owner && isAlive(owner.pid)) || Date.now() > deadline) return owner;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
  }
}

/** Written whole, then renamed into place, so a reader never sees half a file. */
function writeOwner(dataDir: string, owner: DataDirOwner): void {
  const target = path.join(dataDir, OWNER_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(owner) + '\n', { mode: 0o600 });
  fs.renameSync(temporary, target);
}
