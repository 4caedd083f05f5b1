import { describe, expect, it } from 'vitest';
import { applyRunEvent, type LastRun } from '../../../../../clients/web/src/views/schedules/apply-run-event.js';

describe('applyRunEvent', () => {
  const started = { type: 'schedule_run_started', scheduleId: 's', runId: 'r2', sessionId: 'ses_2', trigger: 'manual', startedAt: '2026-11-27T04:00:00.000Z' } as const;

  it('shows a started run as the newest, running, without touching the old map', () => {
    const before = new Map<string, LastRun>();
    const after = applyRunEvent(before, started);
    expect(before.size).toBe(0);
    expect(after.get('s')).toEqual({ runId: 'r2', sessionId: 'ses_2', startedAt: started.startedAt, endedAt: null, outcome: null, error: null });
  });

  it('settles the run it started with its outcome', () => {
    const running = applyRunEvent(new Map(), started);
    const done = applyRunEvent(running, { type: 'schedule_run_finished', scheduleId: 's', runId: 'r2', sessionId: 'ses_2', outcome: 'completed', stopReason: 'end_turn', costUsd: 0.01, endedAt: '2026-11-27T04:00:05.000Z' });
    expect(done.get('s')).toEqual({ runId: 'r2', sessionId: 'ses_2', startedAt: started.startedAt, endedAt: '2026-11-27T04:00:05.000Z', outcome: 'completed', error: null });
  });

  it('shows a skipped run, which never started, as starting and ending at once', () => {
    const skipped = applyRunEvent(new Map(), { type: 'schedule_run_finished', scheduleId: 's', runId: 'r3', sessionId: null, outcome: 'skipped', costUsd: 0, error: 'a run is still going', endedAt: '2026-11-27T04:01:00.000Z' });
    expect(skipped.get('s')).toMatchObject({ startedAt: '2026-11-27T04:01:00.000Z', outcome: 'skipped', error: 'a run is still going', sessionId: null });
  });

  it('keeps a newer run shown when an older one finishes after it started', () => {
    const running = applyRunEvent(new Map(), { ...started, runId: 'r5', startedAt: '2026-11-27T05:00:00.000Z' });
    const after = applyRunEvent(running, { type: 'schedule_run_finished', scheduleId: 's', runId: 'r4', sessionId: 'ses_4', outcome: 'completed', costUsd: 0, endedAt: '2026-11-27T04:59:59.000Z' });
    expect(after.get('s')?.runId).toBe('r5');
  });
});
