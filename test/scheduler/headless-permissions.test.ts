import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { runFinished, startScheduleTestBed, type ScheduleTestBed } from '../support/schedule-test-bed.js';

/** The text of the tool result the model got back in its second request. */
function toolResultOf(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return String(messages.find((m) => m.role === 'tool')?.content);
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
      const { meta } = store.getSession(run.sessionId)!;
      expect(meta).not.toHaveProperty('permissionMode');
      expect(meta.schedule).toEqual({ id: schedule.id, name: `w-${permissionMode}`, runId: run.runId, permissionMode });
    } finally {
      store.close();
    }
  });
});
