import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describeOwner, tryLockDataDir } from '../../store/data-dir-lock.js';
import { describeDaemonKind } from '../describe-daemon-kind.js';
import { okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/**
 * Which process owns the data directory (one daemon at a time does). Doctor looks by
 * trying the lock and letting go at once; a directory no daemon ever used is left
 * untouched. A stdio-only owner is a warning: other agentd commands cannot reach it.
 */
export function checkDataDirOwner(dataDir: string): DoctorCheck {
  const id = 'owner';
  const title = 'data dir owner';
  if (!existsSync(join(dataDir, 'agentd.lock'))) return okCheck(id, title, `no daemon has used ${dataDir} yet`);
  let attempt: ReturnType<typeof tryLockDataDir>;
  try {
    attempt = tryLockDataDir(dataDir, { probe: true });
  } catch (error) {
    return warnCheck(id, title, (error as Error).message, `check the permissions of ${dataDir}`);
  }
  if (attempt.kind === 'acquired') {
    attempt.lock.release();
    return okCheck(id, title, `no daemon owns ${dataDir} now; the next \`agentd serve\` or \`agentd run\` takes it`);
  }
  const detail = `${describeOwner(dataDir, attempt.owner)}; ${describeDaemonKind(attempt.owner)}`;
  if (attempt.owner?.socketPath) return okCheck(id, title, `${detail}; \`agentd run\`, \`agentd acp\` and a second \`agentd\` on stdio go through it`);
  const stop = attempt.owner ? `stop pid ${attempt.owner.pid}` : 'stop it';
  return warnCheck(id, title, `${detail}; other agentd commands cannot reach it and refuse to start`, `${stop} and run the shared daemon with \`agentd serve --socket\` instead`);
}
