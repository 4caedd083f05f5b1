import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { POSTGRES, createTestDatabase } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../support/replay-server.js';

/*
 * Two daemons on one PostgreSQL database, each with one turn slot: prompts queued on
 * either are pg-boss jobs any daemon with a free slot takes, each run exactly once. Each
 * daemon has its own loopback model, so which daemon ran a job is what its model was asked.
 */
describe.skipIf(!requireProgram(POSTGRES))('the pg-boss work queue shared by two daemons', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The prompt text a model request carries (its last user message). */
  const promptOf = (request: RecordedRequest): string => {
    const users = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter((m) => m.role === 'user');
    return JSON.stringify(users.at(-1)?.content);
  };

  async function startDaemon(url: string, workspace: string): Promise<{ daemon: InProcessDaemon; model: ReplayServer }> {
    // Its first request stalls (the turn holds the daemon's only slot until it is aborted); later ones answer at once.
    let first = true;
    const model = await startReplayServer({
      respond: () => {
        if (!first) return { body: chatCompletionSse(['Done.']) };
        first = false;
        const body = chatCompletionSse(['Working', ' on']);
        return { body, stallAfterBytes: body.indexOf('" on"') };
      },
    });
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${model.url}/v1` } }, cluster: { concurrency: 1 } });
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace);
    cleanups.push(async () => {
      await daemon.close();
      await model.close();
      home.cleanup();
    });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    return { daemon, model };
  }

  it('runs N queued prompts each exactly once, spread over both daemons, and leaves every job completed', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    // Both running before any job exists (start-up recovery would take the other's running turns for a dead daemon's).
    const a = await startDaemon(url, workspace);
    const b = await startDaemon(url, workspace);
    expect((await a.daemon.context()).work.kind).toBe('pg-boss');

    const count = 6;
    const jobs: Array<{ sessionId: string; jobId: string; text: string }> = [];
    for (let index = 0; index < count; index++) {
      // Queued on either daemon; made and closed there, so no daemon holds it live when a job runs.
      const { peer } = index % 2 === 0 ? a.daemon : b.daemon;
      const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
      await peer.call('session/close', { sessionId });
      const text = `job number ${index}`;
      const answer = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text }], _meta: { agentd: { queue: true } } });
      expect(answer._meta).toEqual({ agentd: { outcome: 'queued', jobId: expect.any(String), queue: 'pg-boss' } });
      jobs.push({ sessionId, jobId: (answer._meta as { agentd: { jobId: string } }).agentd.jobId, text });
    }

    // Each daemon's first job stalls in its only slot: both daemons took one, and no more.
    await expect.poll(() => [a.model.requests.length, b.model.requests.length], { timeout: 30_000 }).toEqual([1, 1]);
    const { sessions: storeA } = await a.daemon.context();
    for (const daemon of [a, b]) {
      const stalled = jobs.find((job) => promptOf(daemon.model.requests[0]!).includes(job.text))!;
      await daemon.daemon.peer.call('session/abort', { sessionId: stalled.sessionId });
    }

    // The other jobs run to their end on whichever daemon has the free slot.
    const turnsOf = async () => Promise.all(jobs.map(async (job) => (await storeA.store.listTurns(job.sessionId)).map((turn) => [turn.id, turn.status])));
    await expect.poll(async () => (await turnsOf()).flat().filter(([, status]) => status !== 'running').length, { timeout: 60_000 }).toBe(count);
    const turns = await turnsOf();
    // One turn per job, with the job's id: nothing ran twice, nothing was lost.
    expect(turns.map((sessionTurns) => sessionTurns.length)).toEqual(jobs.map(() => 1));
    expect(turns.map((sessionTurns) => sessionTurns[0]![0])).toEqual(jobs.map((job) => job.jobId));
    expect(turns.flat().filter(([, status]) => status === 'cancelled')).toHaveLength(2);
    expect(turns.flat().filter(([, status]) => status === 'end_turn')).toHaveLength(count - 2);
    // Every prompt reached a model once, on one daemon or the other.
    const asked = [...a.model.requests, ...b.model.requests].map(promptOf);
    expect(asked).toHaveLength(count);
    for (const job of jobs) expect(asked.filter((text) => text.includes(job.text))).toHaveLength(1);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await expect
        .poll(async () => (await db.query(`SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'agentd-prompts' GROUP BY state`)).rows, { timeout: 30_000 })
        .toEqual([{ state: 'completed', n: count }]);
    } finally {
      await db.end();
    }
  }, 120_000);

  it('does not run a job again when pg-boss hands it out a second time after its turn was stored', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const { daemon, model } = await startDaemon(url, workspace);
    const { peer } = daemon;
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await peer.call('session/close', { sessionId });
    const answer = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'only once' }], _meta: { agentd: { queue: true } } });
    const jobId = (answer._meta as { agentd: { jobId: string } }).agentd.jobId;
    await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(1);
    await peer.call('session/abort', { sessionId });

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.push(() => db.end());
    const job = async () => (await db.query(`SELECT state, output FROM pgboss.job WHERE id = $1`, [jobId])).rows[0] as { state: string; output: unknown };
    await expect.poll(job, { timeout: 30_000 }).toMatchObject({ state: 'completed', output: { outcome: 'ran', stopReason: 'cancelled' } });
    // What pg-boss does to the job of a daemon that died mid-turn once its expiry passes: back to retry.
    await db.query(`UPDATE pgboss.job SET state = 'retry', completed_on = NULL, output = NULL WHERE id = $1`, [jobId]);
    await db.query(`NOTIFY agentd_work`);
    await expect.poll(job, { timeout: 30_000 }).toMatchObject({ state: 'completed', output: { outcome: 'skipped' } });
    const { sessions } = await daemon.context();
    expect((await sessions.store.listTurns(sessionId)).map((turn) => [turn.id, turn.status])).toEqual([[jobId, 'cancelled']]);
    expect(model.requests).toHaveLength(1);
    expect(daemon.stderr()).toContain(`queued prompt ${jobId} for session ${sessionId} skipped`);
  }, 120_000);

  it('runs the job a gone daemon had taken, on a live daemon, as soon as the sweep sees it gone', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const { daemon, model } = await startDaemon(url, workspace);
    const { peer } = daemon;
    const queued = async (text: string) => {
      const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
      await peer.call('session/close', { sessionId });
      const answer = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text }], _meta: { agentd: { queue: true } } });
      return { sessionId, jobId: (answer._meta as { agentd: { jobId: string } }).agentd.jobId };
    };
    // The daemon's only slot holds a stalled turn, so the second job waits.
    const first = await queued('holds the slot');
    await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(1);
    const second = await queued('taken by a daemon that died');

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.push(() => db.end());
    // What a daemon that died just after taking the job leaves: the job active, taken by a daemon no longer registered.
    await db.query(`UPDATE pgboss.job SET state = 'active', started_on = now(), output = '{"takenBy":"dmn_00000000deadbeef"}' WHERE id = $1`, [second.jobId]);
    await peer.call('session/abort', { sessionId: first.sessionId });

    const job = async () => (await db.query(`SELECT state, retry_count, output FROM pgboss.job WHERE id = $1`, [second.jobId])).rows[0] as { state: string; retry_count: number; output: unknown };
    await expect.poll(job, { timeout: 30_000 }).toMatchObject({ state: 'completed', retry_count: 1, output: { outcome: 'ran', stopReason: 'end_turn' } });
    const { sessions } = await daemon.context();
    expect((await sessions.store.listTurns(second.sessionId)).map((turn) => [turn.id, turn.status])).toEqual([[second.jobId, 'end_turn']]);
    expect(model.requests).toHaveLength(2);
    expect(daemon.stderr()).toContain(`queued prompt ${second.jobId} for session ${second.sessionId}: the daemon that took it is gone; it waits again for a daemon`);
  }, 120_000);

  it('gives a job back to pg-boss to retry when its run fails before anything was stored', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    // No model configured: the turn cannot start, so its prompt is never stored.
    const home = makeHome({});
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace);
    cleanups.push(async () => {
      await daemon.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    });
    const { peer } = daemon;
    await peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const answer = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'no model yet' }], _meta: { agentd: { queue: true } } });
    const jobId = (answer._meta as { agentd: { jobId: string } }).agentd.jobId;

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.push(() => db.end());
    const job = async () => (await db.query(`SELECT state, retry_limit, output FROM pgboss.job WHERE id = $1`, [jobId])).rows[0] as { state: string; retry_limit: number; output: { message?: string } | null };
    await expect.poll(async () => (await job()).state, { timeout: 30_000 }).toBe('retry');
    expect((await job()).retry_limit).toBe(3);
    expect((await job()).output?.message).toEqual(expect.stringContaining('model'));
    const { sessions } = await daemon.context();
    expect(await sessions.store.listTurns(sessionId)).toEqual([]);
    expect(daemon.stderr()).toContain(`queued prompt ${jobId} for session ${sessionId} failed before it was stored (pg-boss retries it)`);
  }, 120_000);

  it('queues a prompt given its job id once, however many times it is queued (a rescuer that died before removing what it queued)', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const { daemon, model } = await startDaemon(url, workspace);
    const { sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await daemon.peer.call('session/close', { sessionId });
    const { work } = await daemon.context();
    const jobId = '0b5c1e7a-4f2d-4a8e-9c3b-2d1f6e8a7b90';
    const job = { sessionId, prompt: [{ type: 'text' as const, text: 'once' }], cwd: workspace, jobId };
    expect(await Promise.all([work.queuePrompt(job), work.queuePrompt(job)])).toEqual([{ jobId }, { jobId }]);
    await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(1);
    expect(await work.queuePrompt(job)).toEqual({ jobId });
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.push(() => db.end());
    expect((await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'agentd-prompts'`)).rows[0].n).toBe(1);
    await daemon.peer.call('session/abort', { sessionId });
  }, 120_000);

  it('starts three daemons at once on an empty database (pg-boss\'s install and queues made one daemon at a time)', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const daemons = [1, 2, 3].map(() => {
      const home = makeHome({});
      const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace);
      cleanups.push(async () => {
        await daemon.close();
        home.cleanup();
      });
      return daemon;
    });
    // Each builds its daemon (store, pg-boss, its own queue) at the same time as the others.
    const contexts = await Promise.all(daemons.map((daemon) => daemon.context()));
    expect(contexts.map((context) => context.work.kind)).toEqual(['pg-boss', 'pg-boss', 'pg-boss']);
    expect(new Set(contexts.map((context) => context.routing.daemonId)).size).toBe(3);
  }, 120_000);
});
