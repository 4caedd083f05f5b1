import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  writeFileSync(path, token + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}
