import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { until } from '../../support/daemon-process.js';
import { startDaemonsOnOneDatabase } from '../../support/daemons-on-one-database.js';
import { POSTGRES } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';
import type { RpcPeer, WireMessage } from '../../support/rpc-peer.js';

async function initialize(peer: RpcPeer): Promise<void> {
  await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {}, _meta: { agentd: { events: true } } });
}

type PermissionParams = { sessionId: string; toolCall: { toolCallId: string }; options: Array<{ optionId: string; kind: string }> };

/** Answers the first question with `kind` once `release` resolves (at once without it); records every question asked. */
function answerWith(peer: RpcPeer, kind: string, release?: Promise<void>): PermissionParams[] {
  const asked: PermissionParams[] = [];
  peer.onRequest('session/request_permission', async (params: PermissionParams) => {
    asked.push(params);
    await release;
    return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.kind === kind)!.optionId } };
  });
  return asked;
}

/** The `permission_resolved` events the client was told, as their outcomes. */
const resolvedOutcomes = (peer: RpcPeer): string[] =>
  peer.received.filter((m) => m.method === 'agentd/event' && m.params.event.type === 'permission_resolved').map((m) => m.params.event.outcome);

const resolved = (peer: RpcPeer): Promise<WireMessage> =>
  peer.waitFor((m) => m.method === 'agentd/event' && m.params.event.type === 'permission_resolved', 15_000, 'permission_resolved');

/** Two daemons, a client on each following one session made on the first, and a turn there that asks to write note.txt. */
async function questionOnDaemonOne(cleanups: Array<() => Promise<void> | void>) {
  const { replay, url, workspace, daemons } = await startDaemonsOnOneDatabase(cleanups, 2);
  const [one, two] = daemons as [NonNullable<(typeof daemons)[0]>, NonNullable<(typeof daemons)[0]>];
  const x = one.peer;
  const y = two.peer;
  for (const peer of [x, y]) await initialize(peer);
  const { sessionId } = await x.call('session/new', { cwd: workspace, mcpServers: [] });
  await y.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'note.txt', content: 'hi\n' } }]) });
  replay.enqueue({ body: chatCompletionSse(['Done.']) });
  const prompt = (): Promise<unknown> => x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a note' }] });
  return { replay, url, workspace, one, two, x, y, sessionId, prompt };
}

/** What the model was told of the write call (its tool result). */
function toolResult(replay: { requests: Array<{ body: unknown }> }): string {
  const messages = (replay.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
  return messages.find((m) => m.role === 'tool')!.content;
}

describe.skipIf(!requireProgram(POSTGRES))('permission questions across daemons on one PostgreSQL', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a follower on another daemon is asked, after the tool call, and its answer lets the turn go on and withdraws the question on the turn’s daemon', async () => {
    const { replay, workspace, x, y, sessionId, prompt } = await questionOnDaemonOne(cleanups);
    let releaseX!: () => void;
    const askedX = answerWith(x, 'reject_once', new Promise<void>((resolve) => (releaseX = resolve)));
    const askedY = answerWith(y, 'allow_once');

    expect(await prompt()).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(workspace, 'note.txt'))).toBe(true);
    expect(toolResult(replay)).not.toMatch(/Permission/);
    // Daemon two's client got the same question as the turn's own client, after the tool call it is about.
    expect(askedY).toHaveLength(1);
    expect(askedY[0]).toEqual(askedX[0]);
    const onTwo = y.received.filter((m) => m.params?.sessionId === sessionId);
    const toolCallAt = onTwo.findIndex((m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'tool_call');
    const questionAt = onTwo.findIndex((m) => m.method === 'session/request_permission');
    expect(toolCallAt).toBeGreaterThanOrEqual(0);
    expect(questionAt).toBeGreaterThan(toolCallAt);

    // The turn's daemon withdrew its client's question and told it the answer given on daemon two.
    await x.waitFor((m) => m.method === '$/cancel_request');
    expect((await resolved(x)).params.event.outcome).toBe('allow_once');
    // X's answer, come too late, changes nothing: the file stays written, each client was told one outcome.
    releaseX();
    replay.enqueue({ body: chatCompletionSse(['Next.']) });
    expect(await x.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'next' }] })).toEqual({ stopReason: 'end_turn' });
    expect(resolvedOutcomes(x)).toEqual(['allow_once']);
    expect(resolvedOutcomes(y)).toEqual(['allow_once']);
  });

  it('the turn’s daemon’s client answering first withdraws the question on the other daemon, telling its client that answer; the late answer there changes nothing', async () => {
    const { replay, workspace, x, y, prompt } = await questionOnDaemonOne(cleanups);
    let releaseX!: () => void;
    answerWith(x, 'reject_once', new Promise<void>((resolve) => (releaseX = resolve)));
    let releaseY!: () => void;
    const askedY = answerWith(y, 'allow_once', new Promise<void>((resolve) => (releaseY = resolve)));

    const turn = prompt();
    await y.waitFor((m) => m.method === 'session/request_permission');
    releaseX();
    expect((await resolved(y)).params.event.outcome).toBe('reject_once');
    await y.waitFor((m) => m.method === '$/cancel_request');
    releaseY();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(workspace, 'note.txt'))).toBe(false);
    expect(toolResult(replay)).toMatch(/Permission denied: the user rejected this write call/);
    expect(askedY).toHaveLength(1);
    expect(resolvedOutcomes(x)).toEqual(['reject_once']);
    expect(resolvedOutcomes(y)).toEqual(['reject_once']);
  });

  it('with no client on the turn’s daemon that can answer, the question waits for the follower on another daemon', async () => {
    const { workspace, x, y, prompt } = await questionOnDaemonOne(cleanups);
    // The turn's own client cannot answer questions (as an editor without permission support).
    x.onRequest('session/request_permission', () => {
      throw new Error('this client does not answer permission questions');
    });
    let releaseY!: () => void;
    answerWith(y, 'allow_once', new Promise<void>((resolve) => (releaseY = resolve)));
    const turn = prompt();
    await y.waitFor((m) => m.method === 'session/request_permission');
    releaseY();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(workspace, 'note.txt'))).toBe(true);
    await resolved(y);
    expect(resolvedOutcomes(y)).toEqual(['allow_once']);
  });

  it('a question whose daemon is no longer alive is withdrawn on the follower’s daemon, as a cancelled turn withdraws it', async () => {
    const { url, x, y, prompt } = await questionOnDaemonOne(cleanups);
    let releaseX!: () => void;
    answerWith(x, 'allow_once', new Promise<void>((resolve) => (releaseX = resolve)));
    answerWith(y, 'allow_once', new Promise<void>(() => undefined));
    const turn = prompt();
    await y.waitFor((m) => m.method === 'session/request_permission');

    // From now on daemon one's heartbeat is too old for the registry (as when it died), while it runs on.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ origin: string }>("SELECT DISTINCT origin FROM session_updates WHERE kind = 'permission_asked'");
      expect(rows).toHaveLength(1);
      await admin.query('UPDATE daemons SET lease_ms = 1 WHERE id = $1', [rows[0]!.origin]);
    } finally {
      await admin.end();
    }
    expect((await resolved(y)).params.event.outcome).toBe('cancelled');
    await y.waitFor((m) => m.method === '$/cancel_request');
    // Daemon one's own client still answers its question there.
    releaseX();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(resolvedOutcomes(y)).toEqual(['cancelled']);
  });

  it('a reply that is no answer (a job anyone with the database could put in the owner’s queue) settles nothing: it counts as no client there', async () => {
    const { replay, url, workspace, one, x, y, prompt } = await questionOnDaemonOne(cleanups);
    let releaseX!: () => void;
    answerWith(x, 'reject_once', new Promise<void>((resolve) => (releaseX = resolve)));
    answerWith(y, 'allow_once', new Promise<void>(() => undefined));
    const turn = prompt();
    await y.waitFor((m) => m.method === 'session/request_permission');

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const boss = new PgBoss({ connectionString: url, schema: 'pgboss', supervise: false, schedule: false, migrate: false });
    try {
      const { rows } = await admin.query<{ origin: string; event: string }>("SELECT origin, event FROM session_updates WHERE kind = 'permission_asked'");
      const owner = rows[0]!.origin;
      const { questionId } = JSON.parse(rows[0]!.event) as { questionId: string };
      await boss.start();
      for (const answer of ['allow_everything', { invalidAnswer: 7 }, null]) {
        await boss.send(`agentd-daemon-${owner}`, { kind: 'question_reply', questionId, from: 'dmn_forged', answer });
      }
      await admin.query("SELECT pg_notify('agentd_route', $1)", [owner]);
      await until(() => one.logs.filter((line) => line.includes('daemon dmn_forged replied')).length === 3, 15_000, 'the three forged replies to be read');
    } finally {
      await boss.stop({ graceful: false, wait: true });
      await admin.end();
    }
    expect(one.stderr()).toContain('daemon dmn_forged replied "allow_everything", which is no answer; it counts as no client there');
    // The question is still open on both daemons: the turn's own client settles it.
    expect(resolvedOutcomes(x)).toEqual([]);
    releaseX();
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(join(workspace, 'note.txt'))).toBe(false);
    expect(toolResult(replay)).toMatch(/Permission denied: the user rejected this write call/);
    // Told through the database, which may come after the turn's own answer.
    await resolved(y);
    expect(resolvedOutcomes(y)).toEqual(['reject_once']);
  });
});
