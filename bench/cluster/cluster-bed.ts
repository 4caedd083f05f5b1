import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, startPostgresServer, type RunningServer } from '../../test/support/postgres-server.js';
import { benchHome } from '../support/daemon-client.js';
import { spawnSocketDaemon, type SocketClient, type SocketDaemon } from '../scale/socket-daemon.js';

let server: RunningServer | undefined;
let databases = 0;

/** Daemons (`agentd serve --socket`, each its own home) sharing one fresh PostgreSQL database and one loopback model. */
export interface ClusterBed {
  url: string;
  workspace: string;
  daemons: Array<{ daemon: SocketDaemon; client: SocketClient }>;
  /** Runs one query on the shared database (the benchmark reads turns from it). */
  query<T extends pg.QueryResultRow>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Starts `count` daemons one after another (the first migrates the database) on a durable
 * PostgreSQL server the benchmark starts once (Debian's binaries, a Unix socket), with the
 * given cluster settings, and connects one initialized client to each.
 */
export async function startClusterBed(count: number, vendorUrl: string, cluster: { concurrency?: number; leaseMs?: number }): Promise<ClusterBed> {
  server ??= startPostgresServer({ durable: true });
  const url = await createDatabase(server, `bench_cluster_${process.pid}_${++databases}`);
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-cluster-ws-'));
  const config = { model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${vendorUrl}/v1` } }, store: { type: 'postgres', url }, cluster };
  const homes: Array<{ cleanup(): void }> = [];
  const daemons: ClusterBed['daemons'] = [];
  const db = new pg.Pool({ connectionString: url, max: 2 });
  const close = async (): Promise<void> => {
    for (const { daemon, client } of daemons) {
      client.close();
      if (daemon.child.exitCode === null && daemon.child.signalCode === null) await daemon.stop();
    }
    await db.end();
    for (const home of homes) home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      const home = benchHome(config);
      homes.push(home);
      const daemon = spawnSocketDaemon(home.home);
      const client = await daemon.connect();
      daemons.push({ daemon, client });
      await client.connection.sendRequest('initialize', { protocolVersion: 1 });
      // The daemon proper is built before the next one starts (migrations, pg-boss's schema).
      await client.connection.sendRequest('session/list', {});
    }
  } catch (error) {
    await close();
    throw new Error(`${(error as Error).message}\n${daemons.map(({ daemon }) => daemon.stderr()).join('\n')}`);
  }
  return { url, workspace, daemons, query: async (sql) => (await db.query(sql)).rows, close };
}
