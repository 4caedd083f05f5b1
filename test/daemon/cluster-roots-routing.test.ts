import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonSessionRouting } from '../../src/daemon/cluster/daemon-session-routing.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startRootsTestBed, type RootedDaemon, type RootsTestBed } from '../support/daemons-with-roots.js';
import { POSTGRES } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import type { RpcPeer } from '../support/rpc-peer.js';

/**
 * Daemons serving different folders (`cluster.roots`) on one PostgreSQL store: a request
 * for a session nobody owns, sent to a daemon that does not serve its folder, runs on one
 * that does, and is answered as on one daemon.
 */
describe.skipIf(!requireProgram(POSTGRES))('requests for a session in a folder another daemon serves', () => {
  let bed: RootsTestBed;
  beforeEach(async () => {
    bed = await startRootsTestBed();
  });
  afterEach(() => bed.close());

  const prompt = (peer: RpcPeer, sessionId: string, text: string) => peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, 60_000);

  async function sessionIn(daemon: RootedDaemon, cwd: string): Promise<string> {
    return (await daemon.peer.call('session/new', { cwd, mcpServers: [] })).sessionId;
  }

  it('runs a prompt sent to A for a session in B\'s root on B, and answers A\'s client with the stop reason; a cancel on A reaches it', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const b = await bed.start('b', { roots: [bed.rootB] });
    const cwd = join(bed.rootB, 'app');
    const sessionId = await sessionIn(b, cwd);
    // Any daemon loads and follows any session, served here or not.
    await a.peer.call('session/load', { sessionId, cwd, mcpServers: [] });

    bed.replay.enqueue({ body: chatCompletionSse(['Still thinking']), stallAfterBytes: 20 });
    const first = prompt(a.peer, sessionId, 'first question');
    await expect.poll(() => bed.replay.requests.length).toBe(1);
    expect(bed.requestedBy()).toEqual(['b']);
    expect(b.context.cluster.leases.holds(sessionId)).toBe(true);
    expect(a.context.cluster.leases.holds(sessionId)).toBe(false);
    // B owns it now: the cancel on A goes to the owner.
    a.peer.notify('session/cancel', { sessionId });
    expect((await first).result).toMatchObject({ stopReason: 'cancelled' });

    // Idle again, owned by nobody: the next prompt on A still goes to B, the daemon that serves the folder.
    await expect.poll(() => a.context.cluster.leases.heldElsewhere(sessionId)).toBeUndefined();
    bed.replay.enqueue({ body: chatCompletionSse(['Second answer.']) });
    const following = a.peer.waitFor((m) => JSON.stringify(m).includes('Second answer.'), 30_000, 'the answer on A');
    expect((await prompt(a.peer, sessionId, 'second question')).result).toMatchObject({ stopReason: 'end_turn' });
    await following;
    expect(bed.requestedBy()).toEqual(['b', 'b']);
    // An abort of the idle session also goes to B and answers as one daemon does.
    expect((await a.peer.request('session/abort', { sessionId })).result).toEqual({ stopped: true });
  });

  it('gives queued prompts only to daemons serving their folder: queued on A, each job runs where its folder is served', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const b = await bed.start('b', { roots: [bed.rootB] });
    const all = await bed.start('all', {});
    const inB = await sessionIn(b, join(bed.rootB, 'app'));
    const inA = await sessionIn(a, join(bed.rootA, 'app'));
    const inC = await sessionIn(all, join(bed.rootC, 'app'));
    for (const daemon of [a, b, all]) for (const sessionId of [inA, inB, inC]) await daemon.peer.call('session/close', { sessionId }).catch(() => undefined);
    const queue = async (sessionId: string, text: string) =>
      (await a.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text }], _meta: { agentd: { queue: true } } }))._meta;
    for (let round = 0; round < 3; round++) {
      for (const [sessionId, text] of [[inB, `b${round}`], [inA, `a${round}`], [inC, `c${round}`]] as const) {
        bed.replay.enqueue({ body: chatCompletionSse(['Done.']) });
        expect(await queue(sessionId, text)).toMatchObject({ agentd: { outcome: 'queued' } });
      }
    }
    const ended = async () => (await Promise.all([inA, inB, inC].map((id) => a.context.sessions.store.listTurns(id)))).flat().filter((turn) => turn.status === 'end_turn').length;
    await expect.poll(ended, { timeout: 30_000 }).toBe(9);
    // Which daemon asked the model for each prompt (its last user message): never one that does not serve the folder.
    const lastUserText = (body: unknown): string => {
      const users = (body as { messages: Array<{ role: string; content: unknown }> }).messages.filter((m) => m.role === 'user');
      return JSON.stringify(users.at(-1)?.content);
    };
    const ranOn = (text: string) => bed.replay.requests.filter((request) => lastUserText(request.body).includes(text)).map((request) => request.path.split('/')[1]);
    for (let round = 0; round < 3; round++) {
      expect(ranOn(`b${round}`)).toHaveLength(1);
      expect(['b', 'all']).toContain(ranOn(`b${round}`)[0]);
      expect(ranOn(`a${round}`)).toHaveLength(1);
      expect(['a', 'all']).toContain(ranOn(`a${round}`)[0]);
      expect(ranOn(`c${round}`)).toEqual(['all']);
    }
  });

  it('runs a prompt on A for a session in its own root there', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    await bed.start('b', { roots: [bed.rootB] });
    const sessionId = await sessionIn(a, join(bed.rootA, 'app'));
    bed.replay.enqueue({ body: chatCompletionSse(['Here.']) });
    expect((await prompt(a.peer, sessionId, 'question')).result).toMatchObject({ stopReason: 'end_turn' });
    expect(bed.requestedBy()).toEqual(['a']);
  });

  it('without roots (the default), runs a prompt where it is sent, as before', async () => {
    const a = await bed.start('a', {});
    const b = await bed.start('b', {});
    const cwd = join(bed.rootB, 'app');
    const sessionId = await sessionIn(b, cwd);
    await a.peer.call('session/load', { sessionId, cwd, mcpServers: [] });
    bed.replay.enqueue({ body: chatCompletionSse(['On A.']) });
    expect((await prompt(a.peer, sessionId, 'question')).result).toMatchObject({ stopReason: 'end_turn' });
    expect(bed.requestedBy()).toEqual(['a']);
    expect(a.context.folders.all).toBe(true);
  });

  it('keeps waiting for a serving daemon that took the prompt and waits for a turn slot (it has no lease yet), then answers', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const b = await bed.start('b', { roots: [bed.rootB], concurrency: 1 });
    const cwd = join(bed.rootB, 'app');
    const busy = await sessionIn(b, cwd);
    const waiting = await sessionIn(b, cwd);
    bed.replay.enqueue({ body: chatCompletionSse(['Holding the slot']), stallAfterBytes: 20 });
    const holding = prompt(b.peer, busy, 'take the only slot');
    await expect.poll(() => bed.replay.requests.length).toBe(1);

    await a.peer.call('session/load', { sessionId: waiting, cwd, mcpServers: [] });
    const routed = prompt(a.peer, waiting, 'wait for the slot');
    let settled = false;
    void routed.then(() => (settled = true));
    // B has taken the request: the session is busy there, waiting for the slot, without a lease.
    await expect.poll(() => b.context.sessions.get(waiting)?.state).toBe('running');
    // Several of A's checks of the daemons its requests wait on (every 250 ms) go by.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(settled).toBe(false);
    expect(b.context.cluster.leases.holds(waiting)).toBe(false);

    bed.replay.enqueue({ body: chatCompletionSse(['Ran after the slot freed.']) });
    b.peer.notify('session/cancel', { sessionId: busy });
    expect((await holding).result).toMatchObject({ stopReason: 'cancelled' });
    expect((await routed).result).toMatchObject({ stopReason: 'end_turn' });
    expect(bed.requestedBy()).toEqual(['b', 'b']);
  });

  it('loads a session whose folder this machine does not have, and runs its prompt on the daemon that serves that folder', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const far = await bed.start('far', { roots: [bed.rootC] });
    // As if "far" ran on another machine, serving a folder this one lacks.
    const elsewhere = join(bed.dir, 'not-on-this-machine', 'proj');
    const db = new pg.Client({ connectionString: bed.url });
    await db.connect();
    try {
      await db.query('UPDATE daemons SET roots = $1 WHERE id = $2', [JSON.stringify([join(bed.dir, 'not-on-this-machine')]), far.context.cluster.daemonId]);
    } finally {
      await db.end();
    }
    const store = await openPostgresStore(bed.url);
    const sessionId = randomUUID();
    try {
      await store.createSession({ id: sessionId, cwd: elsewhere });
    } finally {
      await store.close();
    }
    await a.peer.call('session/load', { sessionId, cwd: elsewhere, mcpServers: [] });
    bed.replay.enqueue({ body: chatCompletionSse(['Ran far away.']) });
    expect((await prompt(a.peer, sessionId, 'question')).result).toMatchObject({ stopReason: 'end_turn' });
    expect(bed.requestedBy()).toEqual(['far']);
  });

  it('routes the prompt again when the serving daemon it went to dies before taking it: another daemon serving the folder runs it', async () => {
    const a = await bed.start('a', { roots: [bed.rootA] });
    const first = await bed.start('b1', { roots: [bed.rootB], leaseMs: 1000 });
    const second = await bed.start('b2', { roots: [bed.rootB], leaseMs: 1000 });
    // Equally loaded: the lower id is picked.
    const [target, survivor] = first.context.cluster.daemonId < second.context.cluster.daemonId ? [first, second] : [second, first];
    const cwd = join(bed.rootB, 'app');
    const sessionId = await sessionIn(survivor, cwd);

    // "Killed": no more heartbeats, nothing taken from its queue; its registry row stays until it is seen gone.
    await target.context.cluster.keeper.stop();
    (target.context.routing as DaemonSessionRouting).stopTaking();

    bed.replay.enqueue({ body: chatCompletionSse(['Rerouted.']) });
    expect((await prompt(a.peer, sessionId, 'question')).result).toMatchObject({ stopReason: 'end_turn' });
    expect(bed.requestedBy()).toEqual([survivor.name]);
    expect(a.daemon.stderr()).toContain(`session ${sessionId}: daemon ${target.context.cluster.daemonId} went away before taking a session/prompt; routing it again`);
  });
});
