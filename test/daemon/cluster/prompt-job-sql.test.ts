import PgBoss from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMPT_QUEUE, PROMPT_RETRY_POLICY } from '../../../src/daemon/cluster/pg-boss-work-queue.js';
import { failGoneTakersSql, fetchPromptJobSql, promptJobIndexesSql } from '../../../src/daemon/cluster/prompt-job-sql.js';
import { POSTGRES, createTestDatabase } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';

/*
 * The statements agentd runs on pg-boss's job table, against pg-boss 10 installed in a
 * real PostgreSQL: the queue made as the daemon makes it, jobs sent through pg-boss itself.
 */
describe.skipIf(!requireProgram(POSTGRES))('the prompt queue\'s own statements on pg-boss\'s table', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function queue(): Promise<PgBoss> {
    const boss = new PgBoss({ connectionString: await createTestDatabase(), schema: 'pgboss', schedule: false, max: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    cleanups.push(() => boss.stop({ graceful: false, close: true }));
    await boss.createQueue(PROMPT_QUEUE, { name: PROMPT_QUEUE, policy: 'singleton', ...PROMPT_RETRY_POLICY });
    // As the daemon makes them; a second time changes nothing.
    for (const statement of [...promptJobIndexesSql('pgboss'), ...promptJobIndexesSql('pgboss')]) await boss.getDb().executeSql(statement, []);
    return boss;
  }

  const send = async (boss: PgBoss, sessionId: string, text: string, cwd?: string): Promise<string> => {
    const id = await boss.send(PROMPT_QUEUE, { sessionId, prompt: [{ type: 'text', text }], ...(cwd === undefined ? {} : { cwd }) }, { singletonKey: sessionId });
    return id!;
  };

  /** What the daemon `daemonId` with `roots` takes next: the prompt's text, or undefined. */
  const take = async (boss: PgBoss, daemonId: string, roots: string[] = []): Promise<string | undefined> => {
    const { rows } = await boss.getDb().executeSql(fetchPromptJobSql('pgboss'), [PROMPT_QUEUE, daemonId, roots]);
    const data = (rows[0] as { data: { prompt: Array<{ text: string }> } } | undefined)?.data;
    return data?.prompt[0]!.text;
  };

  const jobOf = async (boss: PgBoss, text: string) => {
    const { rows } = await boss.getDb().executeSql(`SELECT id, state::text, retry_count, output FROM pgboss.job WHERE name = $1 AND data->'prompt'->0->>'text' = $2`, [PROMPT_QUEUE, text]);
    return rows[0] as { id: string; state: string; retry_count: number; output: Record<string, unknown> | null };
  };

  it('takes a busy session\'s next job only after its job ends, without holding up the other sessions\' jobs', async () => {
    const boss = await queue();
    await send(boss, 'ses_a', 'a1');
    await send(boss, 'ses_a', 'a2');
    await send(boss, 'ses_b', 'b1');
    await send(boss, 'ses_a', 'a3');
    await send(boss, 'ses_c', 'c1');
    // pg-boss's own fetch finds nothing once a1 runs: its oldest waiting job (a2) is a busy session's.
    expect(await take(boss, 'dmn_one')).toBe('a1');
    expect(await take(boss, 'dmn_one')).toBe('b1');
    expect(await take(boss, 'dmn_two')).toBe('c1');
    expect(await take(boss, 'dmn_two')).toBeUndefined();
    await boss.complete(PROMPT_QUEUE, (await jobOf(boss, 'a1')).id);
    // The session's jobs in the order queued.
    expect(await take(boss, 'dmn_two')).toBe('a2');
    expect(await take(boss, 'dmn_one')).toBeUndefined();
    await boss.complete(PROMPT_QUEUE, (await jobOf(boss, 'a2')).id);
    expect(await take(boss, 'dmn_one')).toBe('a3');
    // Who took each job is on it until it ends.
    expect((await jobOf(boss, 'a3')).output).toEqual({ takenBy: 'dmn_one' });
    expect((await jobOf(boss, 'c1')).output).toEqual({ takenBy: 'dmn_two' });
  }, 60_000);

  it('gives one session\'s jobs to one taker at a time when many fetch at once, the oldest first', async () => {
    const boss = await queue();
    for (const text of ['a1', 'a2', 'a3', 'a4', 'a5']) await send(boss, 'ses_a', text);
    await send(boss, 'ses_b', 'b1');
    const taken = await Promise.all(Array.from({ length: 10 }, (_, index) => take(boss, `dmn_${index}`)));
    expect(taken.filter((text) => text !== undefined).sort()).toEqual(['a1', 'b1']);
    const { rows } = await boss.getDb().executeSql(`SELECT singleton_key, count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'active' GROUP BY 1 ORDER BY 1`, [PROMPT_QUEUE]);
    expect(rows).toEqual([{ singleton_key: 'ses_a', n: 1 }, { singleton_key: 'ses_b', n: 1 }]);
  }, 60_000);

  it('keeps a session\'s order behind its oldest job while that one waits out a retry delay', async () => {
    const boss = await queue();
    await send(boss, 'ses_a', 'a1');
    await send(boss, 'ses_a', 'a2');
    expect(await take(boss, 'dmn_one')).toBe('a1');
    await boss.fail(PROMPT_QUEUE, (await jobOf(boss, 'a1')).id, { message: 'the store failed' });
    expect((await jobOf(boss, 'a1')).state).toBe('retry');
    // a1 waits 5 s before its retry; a2 is not taken past it.
    expect(await take(boss, 'dmn_one')).toBeUndefined();
  }, 60_000);

  it('takes only the jobs of folders under the daemon\'s roots, by whole path components', async () => {
    const boss = await queue();
    const folders = ['/srv/work', '/srv/work/app', '/srv/workshop', '/srv', '/srv/work2/x', '/other/srv/work'];
    for (const [index, cwd] of folders.entries()) await send(boss, `ses_${index}`, cwd, cwd);
    await send(boss, 'ses_none', 'no folder recorded');
    const taken: string[] = [];
    for (let text = await take(boss, 'dmn_roots', ['/srv/work', '/nowhere']); text !== undefined; text = await take(boss, 'dmn_roots', ['/srv/work', '/nowhere'])) taken.push(text);
    expect(taken.sort()).toEqual(['/srv/work', '/srv/work/app']);
    // A daemon with no roots, or `/`, takes the rest.
    expect(await take(boss, 'dmn_slash', ['/'])).toBe('/srv/workshop');
    const rest: string[] = [];
    for (let text = await take(boss, 'dmn_all'); text !== undefined; text = await take(boss, 'dmn_all')) rest.push(text);
    expect(rest.sort()).toEqual(['/other/srv/work', '/srv', '/srv/work2/x', 'no folder recorded']);
  }, 60_000);

  it('gives back the jobs of daemons that are gone, once, and leaves the live ones\' jobs running', async () => {
    const boss = await queue();
    await send(boss, 'ses_a', 'a1');
    await send(boss, 'ses_a', 'a2');
    await send(boss, 'ses_b', 'b1');
    expect(await take(boss, 'dmn_dead')).toBe('a1');
    expect(await take(boss, 'dmn_live')).toBe('b1');

    // Two live daemons sweep at once: the job is given back once.
    const sweep = () => boss.getDb().executeSql(failGoneTakersSql('pgboss'), [PROMPT_QUEUE, ['dmn_live', 'dmn_other']]);
    const [first, second] = await Promise.all([sweep(), sweep()]);
    expect([...first.rows, ...second.rows]).toEqual([{ id: (await jobOf(boss, 'a1')).id, state: 'retry', sessionId: 'ses_a' }]);
    expect(await jobOf(boss, 'a1')).toMatchObject({ state: 'retry', output: { value: { message: expect.stringContaining('daemon dmn_dead, which took the job, is gone') } } });
    expect((await jobOf(boss, 'b1')).state).toBe('active');
    // It waits no retry delay, and keeps its place before a2; taking it counts a try.
    expect(await take(boss, 'dmn_live')).toBe('a1');
    expect(await jobOf(boss, 'a1')).toMatchObject({ state: 'active', retry_count: 1, output: { takenBy: 'dmn_live' } });
  }, 60_000);

  it('fails, instead of retrying, a gone daemon\'s job that used its last try', async () => {
    const boss = await queue();
    await send(boss, 'ses_a', 'a1');
    expect(await take(boss, 'dmn_dead')).toBe('a1');
    await boss.getDb().executeSql(`UPDATE pgboss.job SET retry_count = retry_limit WHERE name = $1`, [PROMPT_QUEUE]);
    const { rows } = await boss.getDb().executeSql(failGoneTakersSql('pgboss'), [PROMPT_QUEUE, []]);
    expect(rows).toEqual([{ id: (await jobOf(boss, 'a1')).id, state: 'failed', sessionId: 'ses_a' }]);
    expect(await take(boss, 'dmn_live')).toBeUndefined();
  }, 60_000);
});
