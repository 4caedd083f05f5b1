import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkPostgresStore } from '../../../src/cli/doctor/check-postgres-store.js';
import { runDoctor } from '../../../src/cli/doctor/run-doctor.js';
import { openPostgresStore } from '../../../src/store/postgres-store.js';
import { latestPostgresSchemaVersion } from '../../../src/store/postgres-migrations.js';
import { POSTGRES, createTestDatabase, postgresServer, postgresUrl } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';

async function query(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(!requireProgram(POSTGRES))('agentd doctor: the PostgreSQL store', () => {
  it('reports a database no daemon has used yet as fine, to be migrated by the first', async () => {
    const url = await createTestDatabase();
    const check = await checkPostgresStore(url);
    expect(check).toMatchObject({ id: 'store', status: 'ok' });
    expect(check.detail).toContain(`no agentd has used this database yet (the first daemon migrates it to schema version ${latestPostgresSchemaVersion})`);
  });

  it('reads the schema version a daemon migrated the database to', async () => {
    const url = await createTestDatabase();
    await (await openPostgresStore(url)).close();
    const check = await checkPostgresStore(url);
    expect(check.status).toBe('ok');
    expect(check.detail.split('\n')[0]).toMatch(new RegExp(`answers, schema version ${latestPostgresSchemaVersion}$`));
    expect(check.detail.split('\n')[1]).toBe('0 daemon(s) registered; 0 queued prompt(s) waiting');
  });

  it('lists the daemons sharing the database, alive or gone, with their turns, sessions and roots', async () => {
    const url = await createTestDatabase();
    const store = await openPostgresStore(url);
    try {
      await store.cluster.registerDaemon({ id: 'dmn_00000000000000aa', host: 'build-1', pid: 4242, roots: [], concurrency: 8, leaseMs: 60_000 });
      await store.cluster.heartbeat('dmn_00000000000000aa', { runningTurns: 2 });
      await store.createSession({ id: 'ses-1', cwd: '/srv/work' });
      expect(await store.cluster.claimSession('ses-1', 'dmn_00000000000000aa', 60_000)).toMatchObject({ epoch: 1 });
      await store.cluster.registerDaemon({ id: 'dmn_00000000000000bb', host: 'build-2', pid: 7, roots: ['/srv/work', '/srv/other'], concurrency: 4, leaseMs: 1000 });
    } finally {
      await store.close();
    }
    await query(url, "UPDATE daemons SET heartbeat_at = now() - interval '90 seconds' WHERE id = 'dmn_00000000000000bb'");
    const lines = (await checkPostgresStore(url)).detail.split('\n');
    expect(lines[1]).toBe('2 daemon(s) registered; 0 queued prompt(s) waiting');
    expect(lines[2]).toMatch(/^ {2}dmn_00000000000000aa {2}build-1 pid 4242 {2}heartbeat \d+\.\d s ago {2}2 turn\(s\) {2}1 session\(s\) owned {2}serves every folder$/);
    expect(lines[3]).toMatch(/^ {2}dmn_00000000000000bb {2}build-2 pid 7 {2}gone \(no heartbeat for 9\d s\) {2}0 turn\(s\) {2}0 session\(s\) owned {2}serves \/srv\/work, \/srv\/other$/);
  });

  it('fails on a schema from a newer agentd, saying to upgrade', async () => {
    const url = await createTestDatabase();
    await (await openPostgresStore(url)).close();
    await query(url, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${latestPostgresSchemaVersion + 1}, 'from the future', '2030-01-01T00:00:00.000Z')`);
    const check = await checkPostgresStore(url);
    expect(check).toMatchObject({ status: 'fail', fix: expect.stringContaining('upgrade agentd') });
    expect(check.detail).toContain(`schema version ${latestPostgresSchemaVersion + 1}, but this agentd knows versions up to ${latestPostgresSchemaVersion}`);
  });

  it('fails on a missing database, a server that is not there and a refused login, never showing the password', async () => {
    const { socketDir } = await postgresServer();
    const nowhere = mkdtempSync(join(tmpdir(), 'agentd-no-pg-'));
    const urls = [
      postgresUrl(socketDir, 'no_such_database'),
      `postgres://agentd:hunter2@localhost/agentd?host=${encodeURIComponent(nowhere)}`,
      `postgres://someone_else:hunter2@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    ];
    for (const url of urls) {
      const check = await checkPostgresStore(url);
      expect(check.status, url).toBe('fail');
      expect(check.detail).toMatch(/^cannot use the PostgreSQL store at postgres:\/\//);
      expect(check.fix).toContain('store.url');
      expect(JSON.stringify(check)).not.toContain('hunter2');
    }
  });

  it('is the store doctor checks when AGENTD_STORE_URL or the config chooses PostgreSQL, and a malformed URL fails', async () => {
    const url = await createTestDatabase();
    const home = mkdtempSync(join(tmpdir(), 'agentd-doctor-pg-'));
    const cwd = join(home, 'project');
    mkdirSync(cwd);
    const options = { cwd, daemonTimeoutMs: 500, mcpStartupTimeoutMs: 500, providerTimeoutMs: 500 };
    const storeOf = async (env: NodeJS.ProcessEnv) => (await runDoctor({ ...options, env: { PATH: process.env.PATH, HOME: home, AGENTD_HOME: home, ...env } })).checks.find((check) => check.id === 'store');
    expect((await storeOf({ AGENTD_STORE_URL: url }))?.detail).toMatch(/^PostgreSQL at postgres:\/\/.* answers; no agentd has used/);
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ store: { type: 'postgres', url } }));
    expect((await storeOf({}))?.detail).toMatch(/^PostgreSQL at postgres:\/\//);
    expect(await storeOf({ AGENTD_STORE_URL: 'mysql://db.example.com/agentd' })).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('AGENTD_STORE_URL must be a PostgreSQL URL'),
    });
  });
});
