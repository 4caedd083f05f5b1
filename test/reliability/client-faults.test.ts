import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { connectPeer, until } from '../support/daemon-process.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { seededRandom } from '../support/seeded-random.js';
import { sseFrameEnds } from '../support/sse-frame-ends.js';
import type { ToolDefinition } from '../../protocol/index.js';

/** Resident memory of a process, in bytes (Linux). */
function residentBytes(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

async function initializedPeer(socketPath: string, events = false): Promise<RpcPeer> {
  const peer = await connectPeer(socketPath);
  await peer.call('initialize', { protocolVersion: 1, ...(events ? { _meta: { agentd: { events: true } } } : {}) });
  return peer;
}

const turnEnds = (peer: RpcPeer): Array<{ stopReason: string }> =>
  peer.received.filter((m) => m.method === 'agentd/event' && m.params.event.type === 'turn_end').map((m) => m.params.event);

describe('clients that misbehave', () => {
  let daemon: ClientDaemon;
  const peers: RpcPeer[] = [];

  beforeEach(async () => {
    daemon = await startClientDaemon();
  });

  afterEach(async () => {
    for (const peer of peers.splice(0)) peer.close();
    await daemon.close();
  });

  async function client(events = false): Promise<RpcPeer> {
    const peer = await initializedPeer(daemon.socketPath, events);
    peers.push(peer);
    return peer;
  }

  it('the prompting client hanging up mid-turn leaves the turn to a client watching it; the last follower hanging up stops it', async () => {
    // A turn runs on while any connected client follows its session (stopUnfollowedTurns).
    const prompter = await client();
    const watcher = await client(true);
    const { sessionId } = await prompter.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
    await watcher.call('session/load', { sessionId, cwd: daemon.workspace, mcpServers: [] });
    const answer = chatCompletionSse(['Working ', 'on it ', 'and done.']);
    daemon.replay.enqueue({ body: answer, chunking: { splitAt: sseFrameEnds(answer) }, delayMs: 150 });
    void prompter.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'long job' }] }).catch(() => undefined);
    // The first words, however the relay grouped them (a loaded machine may read two frames at once).
    await watcher.waitFor((m) => typeof m.params?.update?.content?.text === 'string' && m.params.update.content.text.startsWith('Working '));
    prompter.close();
    await until(() => turnEnds(watcher).length === 1, 10_000, 'the turn to end for the watcher');
    expect(turnEnds(watcher)[0]!.stopReason).toBe('end_turn');
    expect(watcher.agentText(sessionId)).toBe('Working on it and done.');

    // Now the watcher prompts a long answer and hangs up: nobody follows the session any more.
    const stalled = chatCompletionSse(['Thinking ', 'for ever']);
    daemon.replay.enqueue({ body: stalled, stallAfterBytes: stalled.indexOf('for ever') - 20 });
    void watcher.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }).catch(() => undefined);
    await watcher.waitFor((m) => typeof m.params?.update?.content?.text === 'string' && m.params.update.content.text.startsWith('Thinking '));
    watcher.close();
    const db = new Database(resolveAgentdPaths(daemon.env).databaseFile, { readonly: true, fileMustExist: true });
    try {
      const lastTurn = (): string => (db.prepare('SELECT status FROM turns WHERE session_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1').get(sessionId) as { status: string }).status;
      await until(() => lastTurn() !== 'running', 10_000, 'the unfollowed turn to stop');
      expect(lastTurn()).toBe('cancelled');
    } finally {
      db.close();
    }
  });

  it('a watching client hanging up mid-turn changes nothing for the prompting one', async () => {
    const prompter = await client();
    const watcher = await client();
    const { sessionId } = await prompter.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
    await watcher.call('session/load', { sessionId, cwd: daemon.workspace, mcpServers: [] });
    const counting = chatCompletionSse(['one ', 'two ', 'three ', 'four']);
    daemon.replay.enqueue({ body: counting, chunking: { splitAt: sseFrameEnds(counting) }, delayMs: 30 });
    const answered = prompter.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'count' }] });
    await watcher.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    watcher.close();
    expect((await answered).result).toEqual({ stopReason: 'end_turn' });
    expect(prompter.agentText(sessionId)).toBe('one two three four');
  });

  it('a client that never reads is dropped with the daemon memory bounded, and other clients are not held up', { timeout: 60_000 }, async () => {
    const healthy = await client();
    const pid = daemon.daemon.child.pid!;
    const toolList = JSON.stringify(await healthy.call('tools/list', {})).length;
    const baseline = residentBytes(pid);

    // Asked of a reader that never reads, 60 000 tools/list answers would queue about 500 MiB.
    const stuck: Socket = connect(daemon.socketPath);
    stuck.on('error', () => undefined);
    await new Promise<void>((resolve) => stuck.once('connect', () => resolve()));
    stuck.pause();
    const requests = [JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } })];
    for (let id = 1; id <= 60_000; id += 1) requests.push(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }));
    stuck.write(requests.join('\n') + '\n');
    expect(60_000 * toolList).toBeGreaterThan(400 * 1024 * 1024);

    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentBytes(pid));
    }, 20);
    try {
      // Meanwhile another client is served as usual, a whole turn included.
      daemon.replay.enqueue({ body: chatCompletionSse(['Still ', 'here.']), chunking: 'bytewise' });
      const other = await client();
      const { sessionId: otherSession } = await other.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
      expect(await other.call('session/prompt', { sessionId: otherSession, prompt: [{ type: 'text', text: 'hi' }] }, 10_000)).toEqual({ stopReason: 'end_turn' });
      expect(other.agentText(otherSession)).toBe('Still here.');
      await until(() => /peer is not reading \(\d+ bytes queued\); closing/.test(daemon.daemon.stderr()), 30_000, 'the daemon to drop the client that does not read');
      expect((await healthy.call('session/list', {}, 10_000)).sessions).toHaveLength(1);
    } finally {
      clearInterval(sampler);
      stuck.destroy();
    }
    // 64 MiB of queue at most, plus answers built before the drop and not yet collected:
    // well below the 500 MiB the requests would queue without a limit.
    process.stderr.write(`client that never reads: daemon RSS ${baseline} before, ${peak} at most\n`);
    expect(peak - baseline, `baseline ${baseline}, peak ${peak}; ${daemon.daemon.stderr().match(/peer is not reading.*/)?.[0]}`).toBeLessThan(256 * 1024 * 1024);
  });

  it('a client whose tool is being called vanishes at a random moment: the call fails cleanly and the turn goes on', { timeout: 60_000 }, async () => {
    const random = seededRandom('tool client vanishing');
    writeFileSync(join(daemon.workspace, 'a.ts'), 'export {};\n');
    const user = await client();
    const { sessionId } = await user.call('session/new', { cwd: daemon.workspace, mcpServers: [] });
    for (let run = 0; run < 6; run += 1) {
      const provider = await client();
      const tool: ToolDefinition = { name: `open_in_editor_${run}`, description: 'Open a file in the editor.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, access: 'read' };
      await provider.call('tools/register', { tools: [tool] });
      const callId = `call_${run}`;
      daemon.replay.enqueue({ body: chatToolCallSse([{ id: callId, name: tool.name, arguments: { path: 'a.ts' } }]) });
      daemon.replay.enqueue({ body: chatCompletionSse([`Done ${run}.`]) });
      const requestsBefore = daemon.replay.requests.length;
      // Vanish before the call arrives, while it waits, or just after answering it.
      const moment = random.pick(['before-call', 'while-pending', 'after-answer'] as const);
      if (moment === 'before-call') provider.close();
      const turn = user.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `open a.ts (${run})` }] }, 15_000);
      if (moment !== 'before-call') {
        const call = await provider.waitFor((m) => m.method === 'tools/call' && m.params.toolCallId === callId);
        await new Promise((resolve) => setTimeout(resolve, random.int(0, 30)));
        if (moment === 'after-answer') {
          provider.send({ jsonrpc: '2.0', id: call.id!, result: { content: [{ type: 'text', text: 'opened' }] } });
          // The connection writes the answer on a later tick; hang up right after it is written.
          await until(() => provider.sentLines.some((line) => JSON.parse(line).id === call.id && line.includes('"result"')), 5_000, 'the answer to be written');
        }
        provider.close();
      }
      const what = `run ${run}, vanished ${moment} (seed ${random.seed})`;
      expect((await turn).result, what).toEqual({ stopReason: 'end_turn' });
      const told = toolResultText(daemon.replay.requests[requestsBefore + 1]!.body, callId);
      if (moment === 'after-answer') expect(told, what).toBe('opened');
      else expect(told, what).toMatch(/disconnected|not available|unknown tool|no (such )?tool/i);
      const status = user.updates(sessionId).filter((u) => u.toolCallId === callId).at(-1)?.status;
      expect(status, what).toBe(moment === 'after-answer' ? 'completed' : 'failed');
      await until(async () => !(await user.call('tools/list', {})).tools.some((t: { name: string }) => t.name === tool.name), 5_000, `${what}: the tool to be unregistered`);
    }
  });
});
