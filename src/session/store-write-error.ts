import { StoreError } from '../store/store-error.js';

/**
 * The store could not save part of a turn (a full disk, an I/O error, a database locked
 * too long). The turn ends with this error, the session is idle again, and everything
 * saved before it stays saved; the message says what was lost and what to do.
 */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';

  constructor(
    /** What was being saved, e.g. "the assistant's message". */
    readonly what: string,
    /** SQLite's result code (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, …) when there is one. */
    readonly sqliteCode: string | undefined,
    cause: unknown,
  ) {
    super(`the session store could not save ${what} (${describeCause(sqliteCode, cause)}); ${advice(sqliteCode)}`, { cause });
  }
}

/**
 * Runs a store write; a failure of the database itself becomes a StoreWriteError naming
 * `what`. A StoreError (a caller's mistake: unknown id, ended turn) passes unchanged.
 */
export function guardStoreWrite<T>(what: string, write: () => Promise<T>): Promise<T> {
  const named = (error: unknown): never => {
    if (error instanceof StoreError || error instanceof StoreWriteError) throw error;
    const code = (error as { code?: unknown }).code;
    throw new StoreWriteError(what, typeof code === 'string' ? code : undefined, error);
  };
  // Not an async function: a commit on SQLite pays for one promise here, not three.
  let written: Promise<T>;
  try {
    written = write();
  } catch (error) {
    written = Promise.reject(error);
  }
  return written.catch(named);
}

function describeCause(code: string | undefined, cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${code}: ${message}` : message;
}

function advice(code: string | undefined): string {
  const ready = 'the session is ready for the next prompt and keeps everything saved before this';
  if (code === 'SQLITE_FULL') return `the disk holding agentd's data directory is full: free some space and prompt again; ${ready}`;
  if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED')) return `another process held the database too long; ${ready}`;
  return `check the disk and the data directory (AGENTD_HOME, or XDG_DATA_HOME/agentd); ${ready}`;
}
