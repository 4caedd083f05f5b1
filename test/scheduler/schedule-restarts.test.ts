import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { until } from '../support/daemon-process.js';
import { historyRow, runFinished, startScheduleTestBed, type ScheduleTestBed } from '../support/schedule-test-bed.js';

const YEARLY = '0 0 1 1 *';

describe('schedules across daemon restarts (the same SQLite file)', () => {
  let bed: ScheduleTestBed;

  afterEach(async () => {
    await bed.cleanup();
  });

  it('a runMissed schedule whose time passed while the daemon was down runs once at start-up, with trigger missed', async () => {
    bed = await startScheduleTestBed();
    const { schedule } = await bed.daemon.peer.call('schedules/add', { name: 'new-year', cron: YEARLY, timezone: 'UTC', prompt: 'happy new year', cwd: bed.workspace, runMissed: true });
    const { schedule: other } = await bed.daemon.peer.call('schedules/add', { name: 'no-catch-up', cron: YEARLY, timezone: 'UTC', prompt: 'x', cwd: bed.workspace });
    await bed.daemon.close();

    // The last runs were in 2024: the daemon has been down over a new year since. The
    // store's own clock writes them, as a daemon of that time would have.
    const store = openStore(resolveAgentdPaths(bed.env).databaseFile, { now: () => new Date('2024-06-01T12:00:00Z') });
    for (const id of [schedule.id, other.id]) {
      await store.schedules.startRun({ id: `run_old_${id}`, scheduleId: id, sessionId: null, trigger: 'cron' });
      await store.schedules.finishRun(`run_old_${id}`, { outcome: 'completed', stopReason: 'end_turn' });
    }
    store.close();

    bed.replay.enqueue({ body: chatCompletionSse(['caught ', 'up']) });
    const { peer } = await bed.restart();
    const missed = await historyRow(peer, schedule.id, (r) => r.trigger === 'missed' && r.outcome !== null);
    expect(missed).toMatchObject({ outcome: 'completed', stopReason: 'end_turn', sessionId: expect.any(String) });
    const { runs } = await peer.call('schedules/history', { id: schedule.id });
    expect(runs.map((r: any) => r.trigger)).toEqual(['missed', 'cron']);
    // Without runMissed nothing is caught up.
    expect((await peer.call('schedules/history', { id: other.id })).runs.map((r: any) => r.runId)).toEqual([`run_old_${other.id}`]);
    await peer.call('session/load', { sessionId: missed.sessionId, cwd: bed.workspace, mcpServers: [] });
    expect(peer.agentText(missed.sessionId)).toBe('caught up');
  });

  it('a run a killed daemon left unfinished is marked failed at start-up, saying the daemon stopped', async () => {
    bed = await startScheduleTestBed();
    const { schedule } = await bed.daemon.peer.call('schedules/add', { name: 'interrupted', cron: YEARLY, prompt: 'x', cwd: bed.workspace });
    await bed.daemon.close();
    // What a daemon killed mid-run leaves behind: a started row and no end.
    const store = openStore(resolveAgentdPaths(bed.env).databaseFile);
    await store.schedules.startRun({ id: 'run_killed', scheduleId: schedule.id, sessionId: 'ses_gone', trigger: 'cron' });
    store.close();

    const { peer } = await bed.restart();
    const { runs } = await peer.call('schedules/history', { id: schedule.id });
    expect(runs).toEqual([
      expect.objectContaining({ runId: 'run_killed', sessionId: 'ses_gone', outcome: 'failed', endedAt: expect.any(String), error: expect.stringContaining('agentd stopped while this run was going') }),
    ]);
    expect(bed.daemon.stderr()).toContain('marked 1 scheduled run(s) failed');
  });

  it('shutting down cancels a running run and the one queued behind it, and records both', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: 'long', cron: YEARLY, prompt: 'x', cwd: bed.workspace, overlap: 'queue' });
    bed.replay.enqueue({ body: chatCompletionSse(['stuck']), stallAfterBytes: 120 });
    const run = await peer.call('schedules/run', { id: schedule.id });
    const queued = await peer.call('schedules/run', { id: schedule.id });
    expect(queued.status).toBe('queued');
    await until(() => bed.replay.requests.length === 1, 10_000, 'the model request');
    await bed.daemon.close();

    const again = await bed.restart();
    const { runs } = await again.peer.call('schedules/history', { id: schedule.id });
    expect(runs).toEqual([
      expect.objectContaining({ runId: queued.runId, sessionId: null, outcome: 'cancelled', error: 'the queued run never started: the daemon shut down' }),
      expect.objectContaining({ runId: run.runId, outcome: 'cancelled', error: expect.stringContaining('daemon shut down') }),
    ]);
    expect(bed.replay.requests).toHaveLength(1);
    // The added schedule itself survived the restart.
    expect((await again.peer.call('schedules/list', {})).schedules.map((s: any) => s.id)).toEqual([schedule.id]);
  });

  it('history pages newest first with a cursor', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: 'pages', cron: YEARLY, prompt: 'x', cwd: bed.workspace });
    bed.replay.enqueue({ body: chatCompletionSse(['stuck']), stallAfterBytes: 120 });
    const first = await peer.call('schedules/run', { id: schedule.id });
    const skipped: string[] = [];
    for (let i = 0; i < 4; i++) skipped.push((await peer.call('schedules/run', { id: schedule.id })).runId);
    await until(() => bed.replay.requests.length === 1, 10_000, 'the model request');
    await peer.call('session/abort', { sessionId: first.sessionId! });
    await runFinished(peer, first.runId);

    const page1 = await peer.call('schedules/history', { id: schedule.id, limit: 3 });
    expect(page1.runs.map((r: any) => r.runId)).toEqual([skipped[3], skipped[2], skipped[1]]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await peer.call('schedules/history', { id: schedule.id, limit: 3, cursor: page1.nextCursor });
    expect(page2.runs.map((r: any) => r.runId)).toEqual([skipped[0], first.runId]);
    expect(page2.nextCursor).toBeNull();
    const bad = await peer.request('schedules/history', { id: schedule.id, cursor: 'nope' });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringContaining('invalid schedule history cursor') });
  });
});
