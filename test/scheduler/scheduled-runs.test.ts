import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { until } from '../support/daemon-process.js';
import { historyRow, runFinished, startScheduleTestBed, type ScheduleTestBed } from '../support/schedule-test-bed.js';

/** A schedule that never comes due during a test: runs start by `schedules/run`. */
const YEARLY = '0 0 1 1 *';

describe('scheduled runs against the loopback vendor', () => {
  let bed: ScheduleTestBed;

  afterEach(async () => {
    await bed.cleanup();
  });

  it('a config schedule with a 6-field one-second cron fires; its session loads with the answer, its history row says completed', async () => {
    bed = await startScheduleTestBed((workspace) => ({ schedules: [{ name: 'tick', cron: '* * * * * *', prompt: 'say hello', cwd: workspace }] }));
    for (let i = 0; i < 5; i++) bed.replay.enqueue({ body: chatCompletionSse(['hello ', 'from cron']) });
    const { peer } = bed.daemon;
    const started = (await peer.waitFor((m) => m.params?.event?.type === 'schedule_run_started', 15_000, 'a cron run')).params.event;
    expect(started).toMatchObject({ scheduleId: 'tick', trigger: 'cron', sessionId: expect.any(String) });
    const finished = await runFinished(peer, started.runId);
    expect(finished).toMatchObject({ scheduleId: 'tick', sessionId: started.sessionId, outcome: 'completed', stopReason: 'end_turn' });

    const listed = await peer.call('schedules/list', {});
    expect(listed.schedules).toEqual([
      expect.objectContaining({ id: 'tick', name: 'tick', source: 'config', cron: '* * * * * *', permissionMode: 'ask', overlap: 'skip', timeoutMs: 180_000, enabled: true }),
    ]);
    const row = await historyRow(peer, 'tick', (r) => r.runId === started.runId);
    expect(row).toMatchObject({ trigger: 'cron', sessionId: started.sessionId, outcome: 'completed', stopReason: 'end_turn', error: null });
    expect(row.endedAt).toEqual(expect.any(String));

    await peer.call('session/load', { sessionId: started.sessionId, cwd: bed.workspace, mcpServers: [] });
    expect(peer.agentText(started.sessionId)).toBe('hello from cron');
    expect(JSON.stringify(bed.replay.requests[0]!.body)).toContain('say hello');
  });

  it('schedules/run answers with the run and session once started; a stalled vendor times the run out', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: 'slow', cron: YEARLY, prompt: 'think', cwd: bed.workspace, timeoutMs: 3_000 });
    expect(schedule).toMatchObject({ id: expect.stringMatching(/^sch_/), source: 'protocol', timeoutMs: 3_000, nextRunAt: expect.any(String) });
    bed.replay.enqueue({ body: chatCompletionSse(['never ', 'finished']), stallAfterBytes: 120 });
    const run = await peer.call('schedules/run', { id: schedule.id });
    expect(run).toEqual({ runId: expect.stringMatching(/^run_/), sessionId: expect.any(String), status: 'started' });

    const finished = await runFinished(peer, run.runId);
    expect(finished).toMatchObject({ sessionId: run.sessionId, outcome: 'timed_out' });
    const row = await historyRow(peer, schedule.id, (r) => r.runId === run.runId);
    expect(row).toMatchObject({ trigger: 'manual', outcome: 'timed_out', error: expect.stringContaining('timeout of 3000 ms') });
    // It was the vendor that stalled: the request went out and its answer never ended.
    expect(bed.replay.requests).toHaveLength(1);
  });

  it('overlap skip: a run due while one runs leaves a skipped row', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: 'skipper', cron: YEARLY, prompt: 'go', cwd: bed.workspace });
    bed.replay.enqueue({ body: chatCompletionSse(['stuck']), stallAfterBytes: 120 });
    const first = await peer.call('schedules/run', { id: schedule.id });
    const second = await peer.call('schedules/run', { id: schedule.id });
    expect(second).toEqual({ runId: expect.any(String), sessionId: null, status: 'skipped' });
    const skipped = await runFinished(peer, second.runId);
    expect(skipped).toMatchObject({ sessionId: null, outcome: 'skipped', costUsd: 0, error: expect.stringContaining(`run ${first.runId} was still going`) });

    await peer.call('session/abort', { sessionId: first.sessionId! });
    expect(await runFinished(peer, first.runId)).toMatchObject({ outcome: 'cancelled', stopReason: 'cancelled' });
    const { runs } = await peer.call('schedules/history', { id: schedule.id });
    expect(runs.map((r: any) => [r.runId, r.outcome])).toEqual([
      [second.runId, 'skipped'],
      [first.runId, 'cancelled'],
    ]);
  });

  it('overlap queue: one run waits and starts when the running one ends; a third is skipped', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: 'queuer', cron: YEARLY, prompt: 'go', cwd: bed.workspace, overlap: 'queue' });
    bed.replay.enqueue({ body: chatCompletionSse(['stuck']), stallAfterBytes: 120 });
    bed.replay.enqueue({ body: chatCompletionSse(['queued ', 'answer']) });
    const first = await peer.call('schedules/run', { id: schedule.id });
    const queued = await peer.call('schedules/run', { id: schedule.id });
    expect(queued).toEqual({ runId: expect.any(String), sessionId: null, status: 'queued' });
    const third = await peer.call('schedules/run', { id: schedule.id });
    expect(third.status).toBe('skipped');
    expect(await runFinished(peer, third.runId)).toMatchObject({ outcome: 'skipped', error: expect.stringContaining('already queued') });

    // The stalled answer must have gone to the first run, or the queued one would get it.
    await until(() => bed.replay.requests.length === 1, 10_000, 'the first run\'s model request');
    await peer.call('session/abort', { sessionId: first.sessionId! });
    expect(await runFinished(peer, first.runId)).toMatchObject({ outcome: 'cancelled' });
    const second = await runFinished(peer, queued.runId);
    expect(second).toMatchObject({ outcome: 'completed', stopReason: 'end_turn', sessionId: expect.any(String) });
    expect(second.sessionId).not.toBe(first.sessionId);
    const row = await historyRow(peer, schedule.id, (r) => r.runId === queued.runId);
    expect(row).toMatchObject({ trigger: 'manual', outcome: 'completed' });
  });

  it('a run that cannot start (its model has no provider) is a failed row, and schedules/run says why', async () => {
    bed = await startScheduleTestBed();
    const { peer } = bed.daemon;
    const { schedule } = await peer.call('schedules/add', { name: 'lost', cron: YEARLY, prompt: 'go', cwd: bed.workspace, model: 'local/e2e-model' });
    await peer.call('schedules/update', { id: schedule.id, model: 'nowhere/none' });
    const run = await peer.call('schedules/run', { id: schedule.id });
    expect(run).toMatchObject({ sessionId: null, status: 'failed', error: expect.stringContaining('nowhere') });
    const row = await historyRow(peer, schedule.id, (r) => r.runId === run.runId);
    expect(row).toMatchObject({ outcome: 'failed', sessionId: null, error: expect.stringContaining('could not start') });
    expect((await peer.call('session/list', {})).sessions).toEqual([]);
  });
});
