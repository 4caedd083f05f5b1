import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionNotification, SessionUpdate } from '../../../protocol/index.js';
import { mapSessionEvent } from '../../../src/server/acp/map-session-event.js';
import { replayUpdates } from '../../../src/server/acp/replay-history.js';
import { startDaemon, type StartedDaemon } from '../../../src/daemon/start-daemon.js';
import { describeToolCall } from '../../../src/tools/describe-tool-call.js';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { chatToolCallSse } from '../../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

/** A chat-completions response that reasons, says something, then calls `read` (DeepSeek's `reasoning_content`). */
function reasonThenRead(): string {
  const base = { id: 'chatcmpl-r', object: 'chat.completion.chunk', created: 1_763_800_000, model: 'e2e-model' };
  const chunk = (delta: unknown, finish: string | null = null): string => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    chunk({ role: 'assistant', content: '' }),
    chunk({ reasoning_content: 'The user wants ' }),
    chunk({ reasoning_content: 'the notes.' }),
    chunk({ content: 'Reading ' }),
    chunk({ content: 'them now.' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_read', type: 'function', function: { name: 'read', arguments: '{"path":"notes.txt"}' } }] }),
    chunk({}, 'tool_calls'),
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
}

/** What a client that was attached while the turn ran ends up showing: chunks of one message joined, progress and usage left out. */
function settled(updates: SessionUpdate[]): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const update of updates) {
    if (update.sessionUpdate === 'usage_update') continue;
    if (update.sessionUpdate === 'tool_call_update' && update.status === 'in_progress') continue;
    const last = out.at(-1);
    const isChunk = update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk';
    if (isChunk && last?.sessionUpdate === update.sessionUpdate && last.messageId === update.messageId && last.content.type === 'text' && update.content.type === 'text') {
      out[out.length - 1] = { ...last, content: { ...last.content, text: last.content.text + update.content.text } };
      continue;
    }
    out.push(update);
  }
  return out;
}

function withoutMeta(notes: SessionNotification[]): SessionUpdate[] {
  return notes.map(({ update }) => {
    const { _meta, ...rest } = update;
    expect((_meta as { agentd?: { turnId?: unknown } } | undefined)?.agentd?.turnId).toEqual(expect.any(String));
    return rest as SessionUpdate;
  });
}

describe('session/load replays what live clients saw', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('reasoning, text, a read with its location, a plan, an edit with its diff and a failed call replay identically', async () => {
    const replay: ReplayServer = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } },
      permissions: { mode: 'acceptEdits' },
    });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    writeFileSync(join(workspace, 'notes.txt'), 'port = 8080\n');

    replay.enqueue({ body: reasonThenRead() });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_plan', name: 'todo', arguments: { todos: [{ content: 'Change the port', status: 'in_progress' }] } }]) });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_edit', name: 'edit', arguments: { path: 'notes.txt', old: '8080', new: '9090' } }]) });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_missing', name: 'read', arguments: { path: 'missing.txt' } }]) });
    replay.enqueue({ body: chatCompletionSse(['The port ', 'is now 9090.']) });

    const options = { cwd: workspace, env: daemonEnv(home.home), version: 'test', write: () => {} };
    let started: StartedDaemon | undefined = await startDaemon(options);
    cleanups.push(() => started?.shutdown());
    const session = await started.daemon.sessions.create({ cwd: workspace });
    const live: SessionUpdate[] = [];
    const audience = { clientId: 'watcher', wantsEvents: false, acceptsNotices: false, acceptsCompaction: false };
    session.subscribe((event) => {
      for (const note of mapSessionEvent(session.id, event, audience)) if (note.method === 'session/update') live.push(note.params.update);
    });
    const outcome = await session.submit([{ type: 'text', text: 'Change the port in notes.txt to 9090.' }], { origin: 'prompter' }).outcome;
    expect(outcome.stopReason).toBe('end_turn');
    expect(replay.requests).toHaveLength(5);

    // A fresh daemon on the same data directory loads the session from the store alone.
    const id = session.id;
    await started.shutdown();
    started = undefined;
    const fresh = await startDaemon(options);
    cleanups.push(() => fresh.shutdown());
    const loaded = await fresh.daemon.sessions.open(id);
    const describe = (name: string, args: Record<string, unknown>) => describeToolCall(fresh.daemon.tools.get(name, id), name, args, workspace);
    const replayed = withoutMeta(replayUpdates(id, await fresh.daemon.sessions.messages(loaded.id), await fresh.daemon.sessions.turns(loaded.id), describe, loaded.record.title));

    const shown = settled(live);
    expect(replayed).toEqual(shown);
    // And what both show is the whole turn: guard against two empty lists agreeing.
    const kinds = shown.map((u) => u.sessionUpdate);
    expect(kinds).toEqual([
      'user_message_chunk',
      'session_info_update',
      'agent_thought_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update',
      'tool_call', 'plan', 'tool_call_update',
      'tool_call', 'tool_call_update',
      'tool_call', 'tool_call_update',
      'agent_message_chunk',
    ]);
    const read = shown.find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'call_read');
    expect(read).toMatchObject({ kind: 'read', locations: [{ path: join(workspace, 'notes.txt') }] });
    const edited = shown.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_edit');
    expect(edited).toMatchObject({ status: 'completed', content: expect.arrayContaining([expect.objectContaining({ type: 'diff', newText: expect.stringContaining('9090') })]) });
    const missing = shown.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_missing');
    expect(missing).toMatchObject({ status: 'failed' });
    expect(shown.at(-1)).toMatchObject({ content: { type: 'text', text: 'The port is now 9090.' } });
  });

  it('a session stored before calls were kept with what was shown still replays their kind and locations', async () => {
    const { replayEvents } = await import('../../../src/session/replay-events.js');
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const base = { sessionId: 's', turnId: 't', status: 'complete' as const, model: null, usage: null, costUsd: null, createdAt: '2026-11-25T00:00:00Z' };
    const messages = [
      { ...base, seq: 1, id: 'm1', role: 'user' as const, content: [{ type: 'text', text: 'read it' }], meta: null },
      { ...base, seq: 2, id: 'm2', role: 'assistant' as const, content: [{ type: 'tool_call', id: 'c1', name: 'read', args: { path: 'a.ts' } }], meta: null },
      { ...base, seq: 3, id: 'm3', role: 'tool' as const, content: [{ type: 'tool_result', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'x' }] }], meta: null },
    ];
    const { readTool } = await import('../../../src/tools/builtin/read.js');
    const events = replayEvents(messages, [], (name, args) => describeToolCall(name === 'read' ? (readTool as never) : undefined, name, args, workspace));
    expect(events.map((e) => e.event)).toEqual([
      { type: 'user_message', messageId: 'm1', content: [{ type: 'text', text: 'read it' }] },
      { type: 'tool_call', toolCallId: 'c1', name: 'read', title: expect.any(String), kind: 'read', locations: [{ path: join(workspace, 'a.ts'), line: 1 }], rawInput: { path: 'a.ts' } },
      { type: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'x' } }] },
    ]);
  });
});
