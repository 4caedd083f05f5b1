import type PgBoss from 'pg-boss';
import type pg from 'pg';

/** The advisory lock agentd daemons change pg-boss's tables under: "agentd" read as a 48-bit number. */
const SCHEMA_CHANGES_LOCK = 107096711263332;

/**
 * One daemon's pg-boss on the PostgreSQL store's database (schema `pgboss`), with the
 * dedicated connection its wake-ups are LISTENed on (a pooled one may be handed to someone
 * else between two notifications). pg-boss and pg are loaded here only, when the store is
 * PostgreSQL, so the SQLite path never pays for them. Shared by the work queue and the
 * routing of requests to a session's owner.
 */
export class PgBossConnection {
  private constructor(
    readonly boss: PgBoss,
    private readonly listener: pg.Client,
    private readonly handlers: Map<string, (payload: string) => void>,
  ) {}

  static async open(url: string, log: (line: string) => void): Promise<PgBossConnection> {
    const [{ default: PgBossClass }, { default: pgModule }] = await Promise.all([import('pg-boss'), import('pg')]);
    const handlers = new Map<string, (payload: string) => void>();
    const listener = new pgModule.Client({ connectionString: url, application_name: 'agentd wake-ups' });
    listener.on('error', (error: Error) => log(`pg-boss wake-ups: ${error.message}; jobs are still looked for every few seconds`));
    listener.on('notification', (message) => handlers.get(message.channel)?.(message.payload ?? ''));
    await listener.connect();
    const boss = new PgBossClass({ connectionString: url, schema: 'pgboss', application_name: 'agentd', max: 4, schedule: false });
    boss.on('error', (error: Error) => log(`pg-boss: ${error.message}`));
    const connection = new PgBossConnection(boss, listener, handlers);
    try {
      await connection.oneAtATime(() => boss.start());
    } catch (error) {
      await listener.end().catch(() => undefined);
      throw error;
    }
    return connection;
  }

  /**
   * Runs `work` (pg-boss's install, a queue created or deleted: each attaches or detaches a
   * partition of pgboss.job) while no other daemon does the same: two daemons starting
   * together otherwise deadlock in PostgreSQL. A session lock on the dedicated connection,
   * so it goes with the connection if the daemon dies holding it.
   */
  async oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    await this.listener.query('SELECT pg_advisory_lock($1)', [SCHEMA_CHANGES_LOCK]);
    try {
      return await work();
    } finally {
      await this.listener.query('SELECT pg_advisory_unlock($1)', [SCHEMA_CHANGES_LOCK]);
    }
  }

  /** Calls `onPayload` for each NOTIFY on `channel` (a fixed identifier, not user input). */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<void> {
    this.handlers.set(channel, onPayload);
    await this.listener.query(`LISTEN ${channel}`);
  }

  /** Wakes the listeners of `channel` in every daemon. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.boss.getDb().executeSql('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async close(): Promise<void> {
    await this.listener.end().catch(() => undefined);
    await this.boss.stop({ graceful: false, close: true });
  }
}
