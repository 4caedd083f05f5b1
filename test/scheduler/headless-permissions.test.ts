import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { runFinished, startScheduleTestBed, type ScheduleTestBed } from '../support/schedule-test-bed.js';

/** The text of the last tool result a model request carried. */
function toolResultOf(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return String(messages.filter((m) => m.role === 'tool').at(-1)?.content);
}

describe('scheduled runs are headless: nobody is asked', () => {
  let bed: ScheduleTestBed;

  afterEach(async () => {
    await bed.cleanup();
  });

  it.each([
    ['ask', false],
    ['acceptEdits', true],
  ] as const)('permissionMode %s: a write inside the workspace is refused (with the reason) or runs', async (permissionMode, writes) => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: `w-${permissionMode}`, cron: '0 0 1 1 *', prompt: 'write it', cwd: bed.workspace, permissionMode });
    bed.replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'out.txt', content: 'done\n' } }]) });
    bed.replay.enqueue({ body: chatCompletionSse(['ok']) });
    const run = await peer.call('schedules/run', { id: schedule.id });
    expect(await runFinished(peer, run.runId)).toMatchObject({ outcome: 'completed' });

    const result = toolResultOf(bed.replay.requests[1]!.body);
    if (writes) {
      expect(readFileSync(join(bed.workspace, 'out.txt'), 'utf8')).toBe('done\n');
    } else {
      expect(existsSync(join(bed.workspace, 'out.txt'))).toBe(false);
      expect(result).toContain('Permission for write is required but no client can be asked');
    }
    // No client was asked anything.
    expect(peer.received.some((m) => m.method === 'session/request_permission')).toBe(false);
    // The run's mode ended with it: whoever goes on with the session later gets the project's.
    const store = openStore(resolveAgentdPaths(bed.env).databaseFile, { readOnly: true });
    try {
      const { meta } = (await store.getSession(run.sessionId!))!;
      expect(meta).not.toHaveProperty('permissionMode');
      expect(meta.schedule).toEqual({ id: schedule.id, name: `w-${permissionMode}`, runId: run.runId, permissionMode });
    } finally {
      store.close();
    }
  });

  it('a client that opens the run\'s session while it runs is not asked either', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    writeFileSync(join(bed.workspace, 'in.txt'), 'data\n');
    const { schedule } = await peer.call('schedules/add', { name: 'watched', cron: '0 0 1 1 *', prompt: 'copy it', cwd: bed.workspace });
    // A read (allowed without asking) first, so the client is following before the write asks.
    // The read's answer trickles in, so the client has opened the session before the write comes.
    const read = chatToolCallSse([{ id: 'call_r', name: 'read', arguments: { path: 'in.txt' } }]);
    bed.replay.enqueue({ body: read, chunking: { splitAt: Array.from({ length: 40 }, (_, i) => (i + 1) * 16) }, delayMs: 50 });
    bed.replay.enqueue({ body: chatToolCallSse([{ id: 'call_w', name: 'write', arguments: { path: 'out.txt', content: 'data\n' } }]) });
    bed.replay.enqueue({ body: chatCompletionSse(['could not']) });
    const run = await peer.call('schedules/run', { id: schedule.id });
    await peer.call('session/load', { sessionId: run.sessionId!, cwd: bed.workspace, mcpServers: [] });
    const loadedAt = peer.received.findIndex((m) => m.result !== undefined && m.result !== null && 'modes' in m.result);
    expect(await runFinished(peer, run.runId)).toMatchObject({ outcome: 'completed' });

    // The write was called live, after the client had the session open ...
    const writeCall = peer.received.findIndex((m) => m.params?.sessionId === run.sessionId && m.params.update?.sessionUpdate === 'tool_call' && m.params.update.toolCallId === 'call_w');
    expect(loadedAt).toBeGreaterThanOrEqual(0);
    expect(writeCall).toBeGreaterThan(loadedAt);
    // ... and still nobody was asked: refused, as in any scheduled run in ask mode.
    expect(peer.received.some((m) => m.method === 'session/request_permission')).toBe(false);
    expect(existsSync(join(bed.workspace, 'out.txt'))).toBe(false);
    expect(toolResultOf(bed.replay.requests[2]!.body)).toContain('Permission for write is required but no client can be asked');
  });
});
