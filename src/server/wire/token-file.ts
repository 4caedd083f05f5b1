import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The TCP token: read from its 0600 file, or created there on first use. Clients read
 * the same file and send its contents in `initialize` `_meta.agentd.token`.
 */
export function ensureTokenFile(path: string): string {
  try {
    const token = readFileSync(path, 'utf8').trim();
    if (token.length >= 32) {
      chmodSync(path, 0o600);
      return token;
    }
  } catch {
    // Created below.
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  // Written beside it and renamed into place: a client reading the file as the daemon
  // starts sees no file or the whole token, never an empty one.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, token + '\n', { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, path);
  return token;
}
