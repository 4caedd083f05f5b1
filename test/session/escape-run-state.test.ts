import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { runFinished, startScheduleTestBed, type ScheduleTestBed } from '../support/schedule-test-bed.js';

// F16: a permission mode (or budget) given for one run is held by that run's turn only. The
// attacker here is whoever gets a later turn of the session to run in the run's mode: a
// client that opens a scheduled bypass run's session, a restart, a stored record.

let bed: ScheduleTestBed;

afterEach(async () => {
  await bed.cleanup();
});

/** Counts the permission questions `peer` gets and rejects each one. */
function rejectAndCount(peer: RpcPeer): { asked: () => number } {
  let asked = 0;
  peer.onRequest('session/request_permission', () => {
    asked++;
    return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
  });
  return { asked: () => asked };
}

/** Runs a bypass schedule whose one turn writes `run.txt`; resolves with the run's session id. */
async function bypassRun(): Promise<string> {
  const { peer } = bed.daemon;
  const { schedule } = await peer.call('schedules/add', { name: 'nightly', cron: '0 0 1 1 *', prompt: 'write it', cwd: bed.workspace, permissionMode: 'bypass', budgetUsd: 5 });
  bed.replay.enqueue({ body: chatToolCallSse([{ id: 'call_run', name: 'write', arguments: { path: 'run.txt', content: 'by the run\n' } }]) });
  bed.replay.enqueue({ body: chatCompletionSse(['written']) });
  const run = await peer.call('schedules/run', { id: schedule.id });
  expect(await runFinished(peer, run.runId)).toMatchObject({ outcome: 'completed' });
  // The run itself did write, unasked: its mode applied to its own turn.
  expect(readFileSync(join(bed.workspace, 'run.txt'), 'utf8')).toBe('by the run\n');
  return run.sessionId as string;
}

/** A client prompt in `sessionId` whose model writes `later.txt`; resolves with the prompt's answer. */
async function promptWrite(peer: RpcPeer, sessionId: string): Promise<any> {
  bed.replay.enqueue({ body: chatToolCallSse([{ id: `call_${bed.replay.requests.length}`, name: 'write', arguments: { path: 'later.txt', content: 'later\n' } }]) });
  bed.replay.enqueue({ body: chatCompletionSse(['done']) });
  return peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write later.txt' }] });
}

describe('F16 per-run state: a run\'s permission mode and budget stay with its turn', () => {
  it.each(['session/load', 'session/resume'] as const)('F16 scheduled bypass run, then a client opens it with %s and prompts a write: asked', async (method) => {
    bed = await startScheduleTestBed();
    const sessionId = await bypassRun();
    const client = bed.daemon.connect();
    await client.call('initialize', { protocolVersion: 1 });
    const questions = rejectAndCount(client);
    await client.call(method, { sessionId, cwd: bed.workspace, mcpServers: [] });
    await promptWrite(client, sessionId);
    expect(questions.asked()).toBe(1);
    expect(existsSync(join(bed.workspace, 'later.txt'))).toBe(false);
  });

  it('F16 the client had the run\'s session open while the bypass run ran, then prompts a write: asked', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const questions = rejectAndCount(peer);
    const { schedule } = await peer.call('schedules/add', { name: 'watched', cron: '0 0 1 1 *', prompt: 'write it', cwd: bed.workspace, permissionMode: 'bypass' });
    // The run's first answer trickles in, so the client has the session open before the run ends.
    const slow = chatToolCallSse([{ id: 'call_run', name: 'write', arguments: { path: 'run.txt', content: 'by the run\n' } }]);
    bed.replay.enqueue({ body: slow, chunking: { splitAt: Array.from({ length: 30 }, (_, i) => (i + 1) * 16) }, delayMs: 40 });
    bed.replay.enqueue({ body: chatCompletionSse(['written']) });
    const run = await peer.call('schedules/run', { id: schedule.id });
    await peer.call('session/load', { sessionId: run.sessionId!, cwd: bed.workspace, mcpServers: [] });
    expect(await runFinished(peer, run.runId)).toMatchObject({ outcome: 'completed' });
    expect(readFileSync(join(bed.workspace, 'run.txt'), 'utf8')).toBe('by the run\n');
    // The session stayed live (the client has it open) and still is not in bypass.
    await promptWrite(peer, run.sessionId!);
    expect(questions.asked()).toBe(1);
    expect(existsSync(join(bed.workspace, 'later.txt'))).toBe(false);
  });

  it('F16 scheduled bypass run, daemon restarted (store reopened), then a client loads and prompts a write: asked', async () => {
    bed = await startScheduleTestBed();
    const sessionId = await bypassRun();
    await bed.daemon.close();
    const { peer } = await bed.restart();
    const questions = rejectAndCount(peer);
    await peer.call('session/load', { sessionId, cwd: bed.workspace, mcpServers: [] });
    await promptWrite(peer, sessionId);
    expect(questions.asked()).toBe(1);
    expect(existsSync(join(bed.workspace, 'later.txt'))).toBe(false);
  });

  it('F16 the stored record of a bypass run holds neither its mode nor its budget as settings', async () => {
    bed = await startScheduleTestBed();
    const sessionId = await bypassRun();
    const store = openStore(resolveAgentdPaths(bed.env).databaseFile, { readOnly: true });
    try {
      const { meta } = (await store.getSession(sessionId))!;
      expect(meta).not.toHaveProperty('permissionMode');
      expect(meta).not.toHaveProperty('budgetUsd');
    } finally {
      store.close();
    }
  });

  it.each([
    ['bypass', 'ask'],
    ['ask', 'bypass'],
  ] as const)('F16 two runs on one session, %s then %s: each runs in its own mode, the client\'s turn after them in the project\'s', async (first, second) => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const questions = rejectAndCount(peer);
    const { sessionId } = await peer.call('session/new', { cwd: bed.workspace, mcpServers: [] });
    const session = await (await bed.daemon.context()).sessions.open(sessionId);
    const runWrite = async (mode: 'ask' | 'bypass', file: string): Promise<void> => {
      bed.replay.enqueue({ body: chatToolCallSse([{ id: `call_${file}`, name: 'write', arguments: { path: file, content: `${mode}\n` } }]) });
      bed.replay.enqueue({ body: chatCompletionSse(['ok']) });
      await session.submit([{ type: 'text', text: `write ${file}` }], { run: { permissionMode: mode } }).outcome;
    };
    await runWrite(first, 'first.txt');
    await runWrite(second, 'second.txt');
    // The ask run asked the client (which rejected); the bypass run wrote unasked.
    expect(questions.asked()).toBe(1);
    expect(existsSync(join(bed.workspace, 'first.txt'))).toBe(first === 'bypass');
    expect(existsSync(join(bed.workspace, 'second.txt'))).toBe(second === 'bypass');
    await promptWrite(peer, sessionId);
    expect(questions.asked()).toBe(2);
    expect(existsSync(join(bed.workspace, 'later.txt'))).toBe(false);
  });

  it.each(['steer', 'followUp'] as const)('F16 a client message cannot join a bypass run\'s turn (delivery %s): refused, naming the run\'s mode', async (delivery) => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const questions = rejectAndCount(peer);
    const { sessionId } = await peer.call('session/new', { cwd: bed.workspace, mcpServers: [] });
    const session = await (await bed.daemon.context()).sessions.open(sessionId);
    // The run's first answer is slow, so the client's message arrives while it runs.
    bed.replay.enqueue({ body: chatCompletionSse(['thinking']), chunking: { splitAt: [8, 16, 24, 32] }, delayMs: 150 });
    bed.replay.enqueue({ body: chatToolCallSse([{ id: 'call_j', name: 'write', arguments: { path: 'joined.txt', content: 'x\n' } }]) });
    bed.replay.enqueue({ body: chatCompletionSse(['ok']) });
    const running = session.submit([{ type: 'text', text: 'think' }], { run: { permissionMode: 'bypass' } }).outcome;
    const sent = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'now write joined.txt' }], _meta: { agentd: { delivery } } });
    expect(sent.error?.message).toMatch(/scheduled run in permission mode "bypass".*cannot join it/);
    const steer = await peer.request(delivery === 'steer' ? 'session/steer' : 'session/followUp', { sessionId, prompt: [{ type: 'text', text: 'write joined.txt' }] });
    expect(steer.error?.message).toMatch(/cannot join it/);
    await running;
    expect(existsSync(join(bed.workspace, 'joined.txt'))).toBe(false);
    expect(questions.asked()).toBe(0);
  });
});

describe('F16 a run\'s budget is its turn\'s only', () => {
  it('F16 a run with a spent budget stops at once; the client\'s next turn in that session runs on the config\'s (none)', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { sessionId } = await peer.call('session/new', { cwd: bed.workspace, mcpServers: [] });
    const session = await (await bed.daemon.context()).sessions.open(sessionId);
    const run = await session.submit([{ type: 'text', text: 'costly' }], { run: { budgetUsd: 0 } }).outcome;
    expect(run.budgetExceeded).toMatch(/budget of \$0/);
    expect(bed.replay.requests).toHaveLength(0);
    bed.replay.enqueue({ body: chatCompletionSse(['answered']) });
    const answer = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] });
    expect(answer).toEqual({ stopReason: 'end_turn' });
    expect(bed.replay.requests).toHaveLength(1);
  });
});

describe('F16 a record written by an older version with a run\'s mode or budget in it', () => {
  it.each(['bypass', 'acceptEdits'])('F16 stored meta.permissionMode "%s" (and a spent budget) is not honoured: the write is asked and the turn runs', async (mode) => {
    bed = await startScheduleTestBed();
    await bed.daemon.close();
    const store = openStore(resolveAgentdPaths(bed.env).databaseFile);
    try {
      await store.createSession({ id: 'legacy-run', cwd: bed.workspace, additionalDirectories: [], meta: { schedule: { id: 's', name: 'old', runId: 'r', permissionMode: mode }, permissionMode: mode, budgetUsd: 0 } });
    } finally {
      store.close();
    }
    const { peer } = await bed.restart();
    const questions = rejectAndCount(peer);
    await peer.call('session/load', { sessionId: 'legacy-run', cwd: bed.workspace, mcpServers: [] });
    const answer = await promptWrite(peer, 'legacy-run');
    // The old record's spent budget (0) would have stopped the turn before its model request.
    expect(answer.stopReason).toBe('end_turn');
    expect(bed.replay.requests).toHaveLength(2);
    expect(questions.asked()).toBe(1);
    expect(existsSync(join(bed.workspace, 'later.txt'))).toBe(false);
  });
});
