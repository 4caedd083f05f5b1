import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { listenForSessionUpdates } from '../../src/store/listen-for-session-updates.js';
import { PostgresSessionUpdates, type NewSessionUpdate } from '../../src/store/postgres-session-updates.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

const update = (turnId: string | null, kind: string, n: number): NewSessionUpdate => ({ turnId, kind, event: JSON.stringify({ type: kind, n }) });

async function query<Row extends object>(url: string, text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** A migrated database with session `s`. */
async function databaseWithSession(): Promise<string> {
  const url = await createTestDatabase();
  const store = await openPostgresStore(url);
  await store.createSession({ id: 's', cwd: '/w' });
  await store.close();
  return url;
}

describe.skipIf(!requireProgram(POSTGRES))('the session_updates table and its wake-ups', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function open(url: string): PostgresSessionUpdates {
    const updates = new PostgresSessionUpdates(url);
    cleanups.push(() => updates.close());
    return updates;
  }

  it('numbers a session’s updates densely in append order, even from two daemons at once, and wakes listeners with a tiny payload', async () => {
    const url = await databaseWithSession();
    const wakeUps: Array<[string, number, string]> = [];
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    let allWoken!: () => void;
    const woken = new Promise<void>((resolve) => (allWoken = resolve));
    const onWakeUp = (id: string, seq: number, origin: string): void => {
      if (wakeUps.push([id, seq, origin]) === 10) allWoken();
    };
    const listener = listenForSessionUpdates(url, { applicationName: 'test-listener', onWakeUp, onListening: () => listening(), log: () => undefined });
    cleanups.push(() => listener.close());
    await ready;

    const [one, two] = [open(url), open(url)];
    const batches = Array.from({ length: 10 }, (_, i) => [update(`t${i}`, 'text_delta', 1), update(`t${i}`, 'text_delta', 2)]);
    const newest = await Promise.all(batches.map((batch, i) => (i % 2 === 0 ? one : two).append('s', i % 2 === 0 ? 'dmn_one' : 'dmn_two', batch)));
    const rows = await one.after('s', 0);
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Each batch is contiguous and ends at the seq its append returned.
    for (const [i, seq] of newest.entries()) expect(rows.slice(seq - 2, seq).map((row) => row.turnId)).toEqual([`t${i}`, `t${i}`]);
    expect(await two.after('s', 18)).toEqual(rows.slice(18));
    expect(await one.newest('s')).toBe(20);

    // Every batch's NOTIFY arrives (one connection delivers them in commit order).
    await woken;
    expect(wakeUps.map(([id]) => id)).toEqual(Array(10).fill('s'));
    expect(wakeUps.map(([, seq]) => seq).sort((a, b) => a - b)).toEqual([...newest].sort((a, b) => a - b));
    // Each names the daemon that appended, so that one does not read its own rows back.
    expect(wakeUps.map(([, seq, origin]) => [seq, origin]).sort(([a], [b]) => Number(a) - Number(b))).toEqual(
      newest.map((seq, i) => [seq, i % 2 === 0 ? 'dmn_one' : 'dmn_two']).sort(([a], [b]) => Number(a) - Number(b)),
    );
  });

  it('prunes the turns that ended more than a minute ago, never the newest turn nor one that ended since', async () => {
    const url = await databaseWithSession();
    const updates = open(url);
    for (const turnId of ['old', 'recent', 'dead', 'newest']) {
      const ends = turnId !== 'dead';
      await updates.append('s', 'dmn_one', [update(turnId, 'turn_start', 1), ...(ends ? [update(turnId, 'turn_end', 2)] : [])]);
    }
    await query(url, "UPDATE session_updates SET created_at = now() - interval '2 minutes' WHERE turn_id IN ('old', 'newest')");
    await query(url, "UPDATE session_updates SET created_at = now() - interval '2 hours' WHERE turn_id = 'dead'");
    await updates.prune('s', 'newest');
    expect([...new Set((await updates.after('s', 0)).map((row) => row.turnId))]).toEqual(['recent', 'newest']);
    // The newest seq goes on from where it was: followers' cursors stay valid.
    expect(await updates.append('s', 'dmn_one', [update('next', 'turn_start', 1)])).toBe(8);
  });

  it('keeps changes outside a turn (no turn id) for a minute, and the newest update always, so seqs count on', async () => {
    const url = await databaseWithSession();
    const updates = open(url);
    await updates.append('s', 'dmn_one', [update(null, 'mode_changed', 1)]);
    await updates.append('s', 'dmn_one', [update('t', 'turn_start', 1), update('t', 'turn_end', 2)]);
    await updates.append('s', 'dmn_two', [update(null, 'settings_changed', 1)]);
    await updates.append('s', 'dmn_two', [update(null, 'mode_changed', 2)]);
    expect((await updates.after('s', 0)).map((row) => [row.seq, row.turnId, row.kind])).toEqual([
      [1, null, 'mode_changed'],
      [2, 't', 'turn_start'],
      [3, 't', 'turn_end'],
      [4, null, 'settings_changed'],
      [5, null, 'mode_changed'],
    ]);
    await query(url, "UPDATE session_updates SET created_at = now() - interval '2 minutes' WHERE seq IN (1, 5)");
    await updates.prune('s', 't');
    // Seq 1 is gone; seq 4 is recent; seq 5, old but the newest, stays so the next append is 6.
    expect((await updates.after('s', 0)).map((row) => row.seq)).toEqual([2, 3, 4, 5]);
    expect(await updates.append('s', 'dmn_one', [update(null, 'mode_changed', 3)])).toBe(6);
  });

  it('LISTENs again after its connection is terminated and says so, so the caller reads what it missed', async () => {
    const url = await databaseWithSession();
    const logs: string[] = [];
    let listened = 0;
    let again!: () => void;
    const relistened = new Promise<void>((resolve) => (again = resolve));
    const listener = listenForSessionUpdates(url, {
      applicationName: 'test-listener-drop',
      onWakeUp: () => undefined,
      onListening: () => {
        if (++listened === 2) again();
      },
      log: (line) => void logs.push(line),
    });
    cleanups.push(() => listener.close());
    await listener.started;
    expect(listened).toBe(1);
    const killed = await query<{ done: boolean }>(url, "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'test-listener-drop'");
    expect(killed.map((row) => row.done)).toEqual([true]);
    await relistened;
    expect(logs.join('\n')).toMatch(/lost the LISTEN connection[\s\S]*listening again/);
    const listening = await query<{ n: string }>(url, "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'test-listener-drop'");
    expect(Number(listening[0]!.n)).toBe(1);
  });
});
