import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkStore } from '../../../src/cli/doctor/check-store.js';
import { migrations } from '../../../src/store/migrations.js';
import { openStore } from '../../../src/store/open-store.js';
import { makeTempHome, type TempHome } from './temp-home.js';

const latest = migrations.length;
let t: TempHome;
let file: string;
beforeEach(async () => {
  t = makeTempHome();
  file = t.paths.databaseFile;
});
afterEach(() => t.cleanup());

describe('checkStore', () => {
  it('is ok when there is no database yet, and creates nothing', async () => {
    const check = checkStore(file);
    expect(check.status).toBe('ok');
    expect(check.detail).toContain('not created yet');
    expect(fs.existsSync(t.paths.dataDir)).toBe(false);
  });

  it('opens a database made by the store and reports its schema version', async () => {
    openStore(file).close();
    expect(checkStore(file)).toEqual({ id: 'store', title: 'session store', status: 'ok', detail: `${file} opens, schema version ${latest}` });
  });

  it('reads the version while a daemon holds the database open', async () => {
    const store = openStore(file);
    await store.createSession({ id: 's1', cwd: '/w' });
    try {
      expect(checkStore(file).status).toBe('ok');
    } finally {
      store.close();
    }
  });

  it('fails a database written by a newer agentd', async () => {
    openStore(file).close();
    const db = new Database(file);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(latest + 1, 'future', '2030-01-01T00:00:00Z');
    db.close();
    const check = checkStore(file);
    expect(check.status).toBe('fail');
    expect(check.detail).toBe(`${file} has schema version ${latest + 1}, but this agentd knows versions up to ${latest}`);
    expect(check.fix).toMatch(/upgrade agentd/);
  });

  it('fails a file that is not a database, naming it and the way out', async () => {
    fs.mkdirSync(t.paths.dataDir, { recursive: true });
    fs.writeFileSync(file, 'plain text, not sqlite; '.repeat(50), { mode: 0o600 });
    const check = checkStore(file);
    expect(check.status).toBe('fail');
    expect(check.detail).toBe(`${file} cannot be opened: file is not a database`);
    expect(check.fix).toContain(`move ${file} aside`);
  });

  it('warns when other users can read the sessions', async () => {
    openStore(file).close();
    fs.chmodSync(file, 0o644);
    const check = checkStore(file);
    expect(check.status).toBe('warn');
    expect(check.fix).toBe(`chmod 600 ${file}*`);
  });
});
