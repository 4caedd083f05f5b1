import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { latestPostgresSchemaVersion } from '../../src/store/postgres-migrations.js';
import type { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { POSTGRES, createTestDatabase, postgresServer, postgresUrl } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

/** What only the PostgreSQL store has: several connections (or daemons) on one database. */
describe.skipIf(!requireProgram(POSTGRES))('PostgreSQL store', () => {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  async function query<Row extends object>(url: string, text: string): Promise<Row[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows as Row[];
    } finally {
      await client.end();
    }
  }

  it('applies the migrations once when two stores open the same empty database at once', async () => {
    const url = await createTestDatabase();
    opened.push(...(await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)])));
    const versions = await query<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(Array.from({ length: latestPostgresSchemaVersion }, (_, i) => i + 1));
    // Each store works on the schema the first one made.
    await opened[0]!.createSession({ id: 's1', cwd: '/w' });
    expect((await opened[2]!.getSession('s1'))?.cwd).toBe('/w');
  });

  it('keeps seq dense and in order when two connections append to one session at once', async () => {
    const url = await createTestDatabase();
    const first = await openPostgresStore(url);
    const second = await openPostgresStore(url);
    opened.push(first, second);
    await first.createSession({ id: 's1', cwd: '/w' });
    const appends = Array.from({ length: 40 }, (_, i) =>
      (i % 2 === 0 ? first : second).appendMessage({ sessionId: 's1', turnId: 't', role: 'user', content: [{ type: 'text', text: `m${i}` }], costUsd: 0.25 }),
    );
    const records = await Promise.all(appends);
    expect(records.map((record) => record.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const stored = await second.listMessages('s1');
    expect(stored.map((message) => message.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Each append's seq is the one it was given, and every cost reached the total.
    expect(new Map(stored.map((message) => [message.id, message.seq]))).toEqual(new Map(records.map((record) => [record.id, record.seq])));
    expect((await first.getSession('s1'))?.totalCostUsd).toBe(10);
  });

  it('names the store, without its password, when the server cannot be reached', async () => {
    const running = await postgresServer();
    const attempts = [
      // No server listens on this socket folder.
      `postgres://agentd:s3cret-word@localhost/agentd?host=${encodeURIComponent(`${running.socketDir}/none`)}`,
      // The server is there, the database is not.
      postgresUrl(running.socketDir, 'no_such_database').replace('agentd_test@', 'agentd_test:s3cret-word@'),
      // Nothing listens on this loopback port (1 is privileged and unused).
      'postgresql://agentd:s3cret-word@127.0.0.1:1/agentd',
    ];
    for (const url of attempts) {
      const error = await openPostgresStore(url).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error, url).toBeInstanceOf(StoreError);
      const message = (error as StoreError).message;
      expect((error as StoreError).code).toBe('unavailable');
      expect(message).toContain('PostgreSQL store at postgres');
      expect(message).toContain('***');
      expect(message).not.toContain('s3cret-word');
      expect(message).toMatch(/store\.url|AGENTD_STORE_URL/);
    }
  });

  it('refuses a database migrated by a newer agentd', async () => {
    const url = await createTestDatabase();
    opened.push(await openPostgresStore(url));
    await query(url, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${latestPostgresSchemaVersion + 1}, 'future', 'now')`);
    await expect(openPostgresStore(url)).rejects.toMatchObject({ code: 'unsupported_database', message: expect.stringContaining('upgrade agentd') });
  });
});
