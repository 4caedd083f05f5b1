import PgBoss from 'pg-boss';
import { PROMPT_QUEUE, PROMPT_RETRY_POLICY } from '../../src/daemon/cluster/pg-boss-work-queue.js';
import { fetchPromptJobSql, promptJobIndexesSql } from '../../src/daemon/cluster/prompt-job-sql.js';
import { createDatabase, startPostgresServer, stopPostgresServer } from '../../test/support/postgres-server.js';

/** Figures of one `job-fetch` run: the cost of taking one queued prompt with so many waiting. */
export interface JobFetchFigures {
  waiting: number;
  completed: number;
  fetches: number;
  /** Milliseconds per fetch: agentd's statement with its indexes, without them, and pg-boss's own fetch. */
  agentdMs: number;
  agentdWithoutIndexesMs: number;
  pgBossMs: number;
  /** Jobs each took in `fetches` tries (pg-boss's stops at a busy session's next job). */
  agentdTaken: number;
  pgBossTaken: number;
}

/**
 * The work queue's fetch against a queue of `waiting` jobs (two per session, queued back to
 * back) and `completed` finished ones (what pg-boss keeps for 12 hours), on a fresh
 * database of a PostgreSQL server started for it: `fetches` fetches by agentd's statement
 * (fetchPromptJobSql) with and without the indexes it adds, and as many by pg-boss's own
 * `fetch`, which is what the daemon used before.
 */
export async function benchJobFetch(waiting: number, completed: number, fetches = 40): Promise<JobFetchFigures> {
  const server = startPostgresServer({ durable: false });
  try {
    const run = async (indexes: boolean, name: string) => {
      const boss = new PgBoss({ connectionString: await createDatabase(server, name), schema: 'pgboss', schedule: false, max: 2 });
      boss.on('error', () => undefined);
      await boss.start();
      try {
        await boss.createQueue(PROMPT_QUEUE, { name: PROMPT_QUEUE, policy: 'singleton', ...PROMPT_RETRY_POLICY });
        const db = boss.getDb();
        if (indexes) for (const statement of promptJobIndexesSql('pgboss')) await db.executeSql(statement, []);
        await db.executeSql(
          `INSERT INTO pgboss.job (id, name, data, state, singleton_key, policy, started_on, completed_on)
           SELECT gen_random_uuid(), $1, '{}'::jsonb, 'completed', 'done' || g, 'singleton', now(), now() FROM generate_series(1, $2) g`,
          [PROMPT_QUEUE, completed],
        );
        await db.executeSql(
          `INSERT INTO pgboss.job (id, name, data, state, singleton_key, policy, created_on)
           SELECT gen_random_uuid(), $1, jsonb_build_object('sessionId', 's' || (g / 2), 'cwd', '/srv/work'), 'created', 's' || (g / 2), 'singleton',
             now() + make_interval(secs => g / 1e6) FROM generate_series(0, $2 - 1) g`,
          [PROMPT_QUEUE, waiting],
        );
        await db.executeSql('ANALYZE pgboss.job', []);
        const sql = fetchPromptJobSql('pgboss');
        const timed = async (fetch: () => Promise<number>) => {
          let taken = 0;
          const started = performance.now();
          for (let i = 0; i < fetches; i++) taken += await fetch();
          return { ms: (performance.now() - started) / fetches, taken };
        };
        const ours = await timed(async () => (await db.executeSql(sql, [PROMPT_QUEUE, 'dmn_bench', []])).rows.length);
        // After agentd's fetches the oldest waiting jobs are busy sessions' second ones: what pg-boss's own fetch meets.
        const theirs = await timed(async () => (await boss.fetch(PROMPT_QUEUE, { batchSize: 1 })).length);
        return { ours, theirs };
      } finally {
        await boss.stop({ graceful: false, close: true });
      }
    };
    const indexed = await run(true, `bench_fetch_${process.pid}_a`);
    const bare = await run(false, `bench_fetch_${process.pid}_b`);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return {
      waiting,
      completed,
      fetches,
      agentdMs: round(indexed.ours.ms),
      agentdWithoutIndexesMs: round(bare.ours.ms),
      pgBossMs: round(indexed.theirs.ms),
      agentdTaken: indexed.ours.taken,
      pgBossTaken: indexed.theirs.taken,
    };
  } finally {
    stopPostgresServer(server);
  }
}
