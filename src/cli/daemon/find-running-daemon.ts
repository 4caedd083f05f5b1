import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tryLockDataDir, type DataDirOwner } from '../../store/data-dir-lock.js';

/** Whether a daemon owns the data directory now, and what it wrote down about itself. */
export type RunningDaemon = { kind: 'none' } | { kind: 'running'; owner: DataDirOwner | undefined };

/**
 * Looks by trying the data directory's lock and letting go at once (as doctor does): the
 * kernel holds it exactly as long as the owner lives, so a crashed daemon never counts.
 * A directory no daemon ever used is left untouched.
 */
export function findRunningDaemon(dataDir: string): RunningDaemon {
  if (!existsSync(join(dataDir, 'agentd.lock'))) return { kind: 'none' };
  const attempt = tryLockDataDir(dataDir, { probe: true });
  if (attempt.kind === 'held') return { kind: 'running', owner: attempt.owner };
  attempt.lock.release();
  return { kind: 'none' };
}
