import type PgBoss from 'pg-boss';
import type pg from 'pg';

/** The advisory lock agentd daemons change pg-boss's tables under: "agentd" read as a 48-bit number. */
const SCHEMA_CHANGES_LOCK = 107096711263332;

/**
 * One daemon's pg-boss on the PostgreSQL store's database (schema `pgboss`), with the
 * dedicated connection its wake-ups are LISTENed on (a pooled one may be handed to someone
 * else between two notifications), opened again when it is lost. pg-boss and pg are loaded here only, when the store is
 * PostgreSQL, so the SQLite path never pays for them. Shared by the work queue and the
 * routing of requests to a session's owner.
 */
export class PgBossConnection {
  private closed = false;

  private constructor(
    readonly boss: PgBoss,
    private listener: pg.Client,
    private readonly handlers: Map<string, (payload: string) => void>,
    private readonly connectListener: () => Promise<pg.Client>,
    private readonly log: (line: string) => void,
  ) {
    this.watch(listener);
  }

  static async open(url: string, log: (line: string) => void): Promise<PgBossConnection> {
    const [{ default: PgBossClass }, { default: pgModule }] = await Promise.all([import('pg-boss'), import('pg')]);
    const handlers = new Map<string, (payload: string) => void>();
    const connectListener = async (): Promise<pg.Client> => {
      const client = new pgModule.Client({ connectionString: url, application_name: 'agentd wake-ups' });
      client.on('notification', (message) => handlers.get(message.channel)?.(message.payload ?? ''));
      try {
        await client.connect();
        for (const channel of handlers.keys()) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        client.on('error', () => undefined);
        await client.end().catch(() => undefined);
        throw error;
      }
      return client;
    };
    const listener = await connectListener();
    const boss = new PgBossClass({ connectionString: url, schema: 'pgboss', application_name: 'agentd', max: 4, schedule: false });
    boss.on('error', (error: Error) => log(`pg-boss: ${error.message}`));
    const connection = new PgBossConnection(boss, listener, handlers, connectListener, log);
    try {
      await connection.oneAtATime(() => boss.start());
    } catch (error) {
      connection.closed = true;
      await listener.end().catch(() => undefined);
      throw error;
    }
    return connection;
  }

  /**
   * A lost wake-up connection (the database restarted, the network dropped) is opened again
   * and LISTENs on every channel again, a second apart until it succeeds; meanwhile jobs and
   * forwarded requests are still looked for every few seconds.
   */
  private watch(client: pg.Client): void {
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost || this.closed) return;
      lost = true;
      this.log(`pg-boss wake-ups: ${error?.message ?? 'the connection ended'}; connecting again (jobs are still looked for every few seconds)`);
      void this.reconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
  }

  private async reconnect(): Promise<void> {
    while (!this.closed) {
      await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      if (this.closed) return;
      try {
        const client = await this.connectListener();
        if (this.closed) {
          await client.end().catch(() => undefined);
          return;
        }
        this.listener = client;
        this.watch(client);
        this.log('pg-boss wake-ups: connected again');
        return;
      } catch {
        // Still unreachable: try again in a second.
      }
    }
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

  /**
   * Removes a queue with every job in it. pg-boss 10.4.2's deleteQueue fails while the
   * queue holds jobs, completed ones included (its job table's foreign key to the queue),
   * and completed jobs stay until pg-boss archives them, 12 hours later.
   */
  async removeQueue(name: string): Promise<void> {
    await this.oneAtATime(async () => {
      await this.boss.getDb().executeSql('DELETE FROM pgboss.job WHERE name = $1', [name]);
      await this.boss.deleteQueue(name);
    });
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
    this.closed = true;
    await this.listener.end().catch(() => undefined);
    await this.boss.stop({ graceful: false, close: true });
  }
}
