import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';

let dir: string;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
});
afterEach(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('creates private parent directories and file, in WAL mode with the pragmas set', async () => {
    const file = path.join(dir, 'a', 'b', 'agentd.db');
    const store = openStore(file);
    try {
      expect(fs.statSync(path.join(dir, 'a')).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, 'a', 'b')).mode & 0o777).toBe(0o700);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(`${file}-wal`)).toBe(true);

      // A second connection sees the persistent settings; the per-connection ones are
      // checked through the store's behaviour (cascade deletes) in sqlite-store.test.ts.
      const other = new Database(file, { readonly: true });
      expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
      await other.close();
    } finally {
      await store.close();
    }
  });

  it('names the file when it is not a database', async () => {
    const file = path.join(dir, 'agentd.db');
    fs.writeFileSync(file, 'this is not sqlite, just text long enough to be read as a header'.repeat(20));
    expect(() => openStore(file)).toThrow(`cannot open the agentd database ${file}: file is not a database`);
  });

  it('keeps committed data written by a process killed with SIGKILL, and recovers its turn', async () => {
    const file = path.join(dir, 'agentd.db');
    const setup = openStore(file);
    setup.createSession({ id: 's1', cwd: '/w' });
    setup.close();

    // The child writes the way the daemon does (same SQL, one transaction per message)
    // and dies without closing, so nothing is checkpointed: the data lives only in the WAL.
    const script = path.join(dir, 'crash-mid-turn.mjs');
    fs.writeFileSync(
      script,
      `
      import { createRequire } from 'node:module';
      const Database = createRequire(import.meta.url)(process.argv[3]);
      const db = new Database(process.argv[2]);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      const now = new Date().toISOString();
      const insert = db.prepare(\`INSERT INTO messages (session_id, seq, id, turn_id, role, content, status, created_at)
        VALUES ('s1', (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = 's1'), ?, 't1', ?, ?, 'complete', ?)\`);
      db.prepare("INSERT INTO turns (id, session_id, status, started_at) VALUES ('t1', 's1', 'running', ?)").run(now);
      db.transaction(() => {
        insert.run('m1', 'user', JSON.stringify([{ type: 'text', text: 'committed' }]), now);
        db.prepare("UPDATE sessions SET updated_at = ? WHERE id = 's1'").run(now);
      })();
      // Mid-way through the next message: begun, never committed.
      db.exec('BEGIN');
      insert.run('m2', 'assistant', JSON.stringify([{ type: 'text', text: 'in flight' }]), now);
      process.kill(process.pid, 'SIGKILL');
      `,
    );
    const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');
    const child = spawnSync(process.execPath, [script, file, sqlitePath], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);

    const store = openStore(file);
    try {
      expect((await store.listMessages('s1')).map((m) => [m.id, m.content])).toEqual([
        ['m1', [{ type: 'text', text: 'committed' }]],
      ]);
      expect(await store.recoverInterruptedTurns()).toEqual([
        expect.objectContaining({ id: 't1', sessionId: 's1', status: 'interrupted' }),
      ]);
      expect((await store.listTurns('s1')).map((t) => t.status)).toEqual(['interrupted']);
    } finally {
      await store.close();
    }
  });
});
