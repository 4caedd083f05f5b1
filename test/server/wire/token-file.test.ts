import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureTokenFile } from '../../../src/server/wire/token-file.js';

describe('ensureTokenFile', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const fresh = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'agentd-token-'));
    dirs.push(dir);
    return join(dir, 'state', 'token');
  };

  it('creates a 0600 file holding the whole token, renamed into place with nothing left beside it', () => {
    const path = fresh();
    const token = ensureTokenFile(path);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path, 'utf8')).toBe(`${token}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(path, '..'))).toEqual(['token']);
  });

  it('keeps an existing token and tightens its mode; replaces one too short to be safe', () => {
    const path = fresh();
    const first = ensureTokenFile(path);
    chmodSync(path, 0o644);
    expect(ensureTokenFile(path)).toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, 'short\n');
    const replaced = ensureTokenFile(path);
    expect(replaced).not.toBe('short');
    expect(replaced).toMatch(/^[0-9a-f]{64}$/);
  });
});
