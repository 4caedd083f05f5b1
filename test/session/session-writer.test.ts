import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/session/session-event.js';
import { SessionWriter } from '../../src/session/session-writer.js';
import { StoreWriteError } from '../../src/session/store-write-error.js';
import { migrateDatabase } from '../../src/store/migrate-database.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

/** A real SQLite file whose connection gives up at once when another process holds the write lock. */
function openImpatientStore(file: string): SqliteStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 0');
  migrateDatabase(db);
  return new SqliteStore(db);
}

describe('SessionWriter when the store fails', () => {
  let dir: string;
  let store: SqliteStore;
  let events: SessionEvent[];
  let writer: SessionWriter;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentd-writer-'));
    store = openImpatientStore(join(dir, 'agentd.db'));
    const record = await store.createSession({ id: 's1', cwd: dir });
    events = [];
    writer = new SessionWriter(record, store, (event) => events.push(event));
  });

  afterEach(async () => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Another connection holds the write lock (as a stuck process would) while `during` runs. */
  async function whileLocked(during: () => Promise<void>): Promise<void> {
    const other = new Database(join(dir, 'agentd.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      await during();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }

  it('[F10 store-failure] a locked database at turn end still announces the end, and records it before the next turn', async () => {
    await writer.startTurn('t1');
    await writer.commit({ role: 'user', content: [{ type: 'text', text: 'hello' }] }, { status: 'complete' });
    let failure: unknown;
    await whileLocked(async () => {
      try {
        await writer.endTurn('end_turn', null);
      } catch (error) {
        failure = error;
      }
    });
    expect(failure).toBeInstanceOf(StoreWriteError);
    expect((failure as StoreWriteError).message).toMatch(/^the session store could not save the end of the turn \(SQLITE_BUSY: .*another process held the database too long/);
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', turnId: 't1', error: (failure as Error).message });
    expect((await store.listTurns('s1')).map((t) => t.status)).toEqual(['running']);

    await writer.startTurn('t2');
    expect((await store.listTurns('s1')).map((t) => [t.id, t.status])).toEqual([
      ['t1', 'end_turn'],
      ['t2', 'running'],
    ]);
    expect((await store.listMessages('s1')).map((m) => m.content)).toEqual([[{ type: 'text', text: 'hello' }]]);
  });

  it('[F10 store-failure] a locked database when a message commits throws StoreWriteError and announces nothing', async () => {
    await writer.startTurn('t1');
    const before = events.length;
    await whileLocked(async () => {
      await expect(writer.commit({ role: 'assistant', content: [{ type: 'text', text: 'lost' }] }, { status: 'complete', costUsd: 0.5 })).rejects.toThrow(
        /could not save the model's message \(SQLITE_BUSY/,
      );
    });
    expect(events.length).toBe(before);
    expect(writer.record.totalCostUsd).toBe(0);
    expect(await store.listMessages('s1')).toEqual([]);
  });
});
