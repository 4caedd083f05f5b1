import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { tryLockDataDir } from '../../store/data-dir-lock.js';
import { openStore } from '../../store/open-store.js';

/** `agentd sessions`: the stored sessions, newest first. */
export async function sessionsCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { cwd: { type: 'string' }, json: { type: 'boolean' }, all: { type: 'boolean' } },
    strict: true,
  });
  const paths = resolveAgentdPaths(process.env);
  // While a daemon owns the data directory, only read its database; otherwise hold the
  // lock for the moment the store is open, so no daemon starts recovering meanwhile.
  const attempt = tryLockDataDir(paths.dataDir);
  const owned = attempt.kind === 'held';
  if (owned && !existsSync(paths.databaseFile)) return 0;
  const store = openStore(paths.databaseFile, { readOnly: owned });
  try {
    const query = values.cwd ? { cwd: resolve(values.cwd) } : {};
    let cursor: string | null = null;
    do {
      const page = store.listSessions({ ...query, ...(cursor ? { cursor } : {}) });
      for (const s of page.sessions) {
        if (values.json) process.stdout.write(JSON.stringify(s) + '\n');
        else process.stdout.write(`${s.id}  ${s.updatedAt}  ${s.cwd}${s.title ? `  ${s.title}` : ''}\n`);
      }
      cursor = values.all ? page.nextCursor : null;
    } while (cursor);
    return 0;
  } finally {
    store.close();
    if (attempt.kind === 'acquired') attempt.lock.release();
  }
}
