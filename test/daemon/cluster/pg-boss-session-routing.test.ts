import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltDaemonContext } from '../../../src/daemon/create-daemon-context.js';
import { daemonQueue } from '../../../src/daemon/cluster/pg-boss-session-routing.js';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { POSTGRES, createTestDatabase } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../../support/replay-server.js';

/*
 * Two daemons on one PostgreSQL database: requests for a session the other daemon owns
 * are forwarded to it through its pg-boss queue and answered from there. Who owns a
 * session is what the lease store will say; here the test says it (the map below stands
 * where the leases go), and each daemon has its own loopback model, so which daemon ran a
 * turn is what its model was asked.
 */
describe.skipIf(!requireProgram(POSTGRES))('requests forwarded to the daemon that owns the session', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const stalled = (): ReplayResponse => {
    const body = chatCompletionSse(['Working', ' on']);
    return { body, stallAfterBytes: body.indexOf('" on"') };
  };

  async function startDaemon(url: string, workspace: string, owners: Map<string, string>, answers: Array<() => ReplayResponse>): Promise<{ daemon: InProcessDaemon; model: ReplayServer; id: string }> {
    // Each request takes the next scripted answer; once they are used up, the model says Done.
    const model = await startReplayServer({ respond: () => (answers.shift() ?? (() => ({ body: chatCompletionSse(['Done.']) })))() });
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${model.url}/v1` } } });
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace, { findSessionOwner: async (id) => owners.get(id) });
    cleanups.push(async () => {
      await daemon.close();
      await model.close();
      home.cleanup();
    });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    return { daemon, model, id: (await daemon.context()).routing.daemonId };
  }

  /** What a killed daemon leaves while its process (in-process here) runs on: no more heartbeats, the last one older than its lease. */
  async function looksKilled(url: string, daemon: InProcessDaemon, id: string): Promise<void> {
    await ((await daemon.context()) as BuiltDaemonContext).cluster.keeper.stop();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query(`UPDATE daemons SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [id]);
    } finally {
      await db.end();
    }
  }

  /** Daemons A and B on one database; a session B owns (by the test's word) runs on B, at its stalled model, a prompt sent to A. */
  async function promptForwardedToStalledOwner() {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const owners = new Map<string, string>();
    const a = await startDaemon(url, workspace, owners, []);
    const b = await startDaemon(url, workspace, owners, [stalled]);
    const { sessionId } = await b.daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    owners.set(sessionId, b.id);
    const forwarded = a.daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Count' }] });
    await expect.poll(() => b.model.requests.length, { timeout: 30_000 }).toBe(1);
    return { url, a, b, sessionId, owners, forwarded };
  }

  it('prompts, follows up, cancels and aborts on the owner, and answers each request with the owner\'s answer', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const owners = new Map<string, string>();
    const a = await startDaemon(url, workspace, owners, []);
    const b = await startDaemon(url, workspace, owners, [stalled, stalled, () => ({ body: chatCompletionSse(['Done on B.']) })]);
    expect(a.id).toMatch(/^dmn_[0-9a-f]{16}$/);
    const { sessionId } = await b.daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    owners.set(sessionId, b.id);
    const prompt = (text: string) => ({ sessionId, prompt: [{ type: 'text' as const, text }] });

    // Sent to A, run on B: B's model is asked.
    const first = a.daemon.peer.request('session/prompt', prompt('Count to two hundred'));
    await expect.poll(() => b.model.requests.length, { timeout: 30_000 }).toBe(1);
    expect(await a.daemon.peer.call('session/followUp', prompt('Then stop'))).toEqual({ queued: 1 });
    const busy = await a.daemon.peer.requestUnchecked('session/prompt', prompt('Something else'));
    expect(busy.error).toMatchObject({ code: -32010 });
    expect(await a.daemon.peer.call('session/abort', { sessionId })).toEqual({ stopped: true });
    expect((await first).result).toEqual({ stopReason: 'cancelled' });

    // ACP's session/cancel, sent to A, stops the turn on B.
    const second = a.daemon.peer.request('session/prompt', prompt('Count again'));
    await expect.poll(() => b.model.requests.length, { timeout: 30_000 }).toBe(2);
    a.daemon.peer.notify('session/cancel', { sessionId });
    expect((await second).result).toEqual({ stopReason: 'cancelled' });

    // A turn that runs to its end answers with its stop reason when it ends.
    expect(await a.daemon.peer.call('session/prompt', prompt('Finish'))).toEqual({ stopReason: 'end_turn' });
    expect(b.model.requests).toHaveLength(3);
    expect(a.model.requests).toHaveLength(0);
    const { sessions } = await b.daemon.context();
    expect((await sessions.store.listTurns(sessionId)).map((turn) => turn.status)).toEqual(['cancelled', 'cancelled', 'end_turn']);

    // A daemon stopping takes its queue with it, though it holds the completed jobs of the requests it took.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.push(() => db.end());
    const queueOf = async (id: string) => (await db.query(`SELECT count(*)::int AS n FROM pgboss.queue WHERE name = $1`, [daemonQueue(id)])).rows[0].n as number;
    expect((await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'completed'`, [daemonQueue(b.id)])).rows[0].n).toBeGreaterThan(0);
    await b.daemon.close();
    expect(await queueOf(b.id)).toBe(0);
    expect(await queueOf(a.id)).toBe(1);
  }, 120_000);

  it('waits for the answer of a live owner that let the session go after taking the request (its turn ended, its lease released)', async () => {
    const { url, a, b, sessionId, owners, forwarded } = await promptForwardedToStalledOwner();
    // The lease store says nobody owns the session, as between B's release at the turn's end and its answer reaching A.
    owners.delete(sessionId);
    // Several of A's owner checks go by (every 250 ms) while B, alive, still runs the turn.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await b.daemon.peer.call('session/abort', { sessionId });
    expect((await forwarded).result).toEqual({ stopReason: 'cancelled' });
  }, 120_000);

  it('fails a forwarded prompt whose owner died after taking it, saying to send it again', async () => {
    const { url, a, b, sessionId, owners, forwarded } = await promptForwardedToStalledOwner();
    await looksKilled(url, b.daemon, b.id);
    owners.delete(sessionId);
    const answer = await forwarded;
    expect(answer.error).toMatchObject({ code: -32603, data: { kind: 'owner_lost', owner: b.id } });
    expect(answer.error?.message).toContain(`daemon ${b.id}, which owned session ${sessionId}, lost it before it answered`);
    await b.daemon.peer.call('session/abort', { sessionId });
  }, 120_000);

  it('fails a forwarded follow-up whose owner lost the session before the turn ended, saying it is kept rather than to send it again', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const owners = new Map<string, string>();
    const a = await startDaemon(url, workspace, owners, []);
    const b = await startDaemon(url, workspace, owners, [stalled]);
    const { sessionId } = await b.daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const running = b.daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Count' }] });
    await expect.poll(() => b.model.requests.length, { timeout: 30_000 }).toBe(1);
    owners.set(sessionId, b.id);
    const forwarded = a.daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Then stop' }], _meta: { agentd: { delivery: 'followUp' } } });
    const { sessions } = await b.daemon.context();
    await expect.poll(async () => (await sessions.store.pendingPrompts.list(sessionId)).length, { timeout: 30_000 }).toBe(1);
    await looksKilled(url, b.daemon, b.id);
    owners.delete(sessionId);
    const answer = await forwarded;
    expect(answer.error).toMatchObject({ code: -32603, data: { kind: 'owner_lost', owner: b.id } });
    expect(answer.error?.message).toContain('a steer or follow-up it had stored is kept and runs as its own turn on another daemon');
    expect(answer.error?.message).not.toContain('send the request again');
    await b.daemon.peer.call('session/abort', { sessionId });
    expect((await running).result).toEqual({ stopReason: 'cancelled' });
  }, 120_000);
});
