import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleRun } from '../../../../../protocol/index.js';
import { ScheduleForm } from '../../../../../clients/web/src/views/schedules/schedule-form.js';
import { emptyScheduleForm } from '../../../../../clients/web/src/views/schedules/schedule-form-values.js';
import { ScheduleHistoryTable } from '../../../../../clients/web/src/views/schedules/schedule-history-table.js';
import type { LastRun } from '../../../../../clients/web/src/views/schedules/apply-run-event.js';
import { ScheduleTable, type ScheduleTableProps } from '../../../../../clients/web/src/views/schedules/schedule-table.js';
import { unnamedControls } from '../../../../support/unnamed-controls.js';

const base: Schedule = {
  id: 'sch_1',
  name: 'nightly',
  cron: '0 3 * * *',
  timezone: 'UTC',
  prompt: 'Check.',
  cwd: '/srv',
  timeoutMs: 180_000,
  permissionMode: 'ask',
  overlap: 'skip',
  runMissed: false,
  enabled: true,
  source: 'protocol',
  nextRunAt: '2026-11-28T03:00:00.000Z',
};
const fromConfig: Schedule = { ...base, id: 'weekly', name: 'weekly', source: 'config', enabled: false, nextRunAt: null };

const noop = (): void => undefined;
const table = (props: Partial<ScheduleTableProps> = {}): string =>
  renderToString(
    h(ScheduleTable, {
      schedules: [fromConfig, base],
      lastRuns: new Map<string, LastRun>([['sch_1', { runId: 'r1', sessionId: 'ses_1', startedAt: '2026-11-27T03:00:00.000Z', endedAt: '2026-11-27T03:00:09.000Z', outcome: 'failed', error: 'boom' }]]),
      confirmingRemove: null,
      historyOf: null,
      busy: new Set<string>(),
      onRun: noop,
      onToggle: noop,
      onEdit: noop,
      onAskRemove: noop,
      onRemove: noop,
      onCancelRemove: noop,
      onHistory: noop,
      ...props,
    }),
  );

describe('the schedule list', () => {
  it('shows next run, enabled and the last outcome of each schedule', () => {
    const html = table();
    expect(html).toContain('<time datetime="2026-11-28T03:00:00.000Z">');
    expect(html).toMatch(/<td class="schedule-bad">failed <time datetime="2026-11-27T03:00:00.000Z">/);
    expect(html).toContain('never run');
    expect(html).toContain('<input type="checkbox" checked aria-label="Enabled: nightly"/>');
    expect(html).toContain('<td>never run</td>');
    expect(unnamedControls(html)).toEqual([]);
  });

  it('offers a config.json schedule run and history only, its enabled box disabled', () => {
    const html = table();
    expect(html).toContain('aria-label="Run weekly now"');
    expect(html).toContain('aria-label="History of weekly"');
    expect(html).not.toContain('aria-label="Edit weekly"');
    expect(html).not.toContain('aria-label="Remove weekly"');
    expect(html).toMatch(/<input type="checkbox" disabled aria-label="Enabled: weekly"/);
    expect(html).toContain('aria-label="Edit nightly"');
    expect(html).toContain('aria-label="Remove nightly"');
  });

  it('asks before removing, in place of the row\'s actions', () => {
    const html = table({ confirmingRemove: 'sch_1' });
    expect(html).toContain('role="group" aria-label="Confirm removing nightly"');
    expect(html).toContain('Yes, remove nightly');
    expect(html).toContain('Keep it');
    expect(html).not.toContain('aria-label="Run nightly now"');
    expect(unnamedControls(html)).toEqual([]);
  });

  it('marks a busy row\'s buttons aria-disabled, keeping them focusable', () => {
    const html = table({ busy: new Set(['sch_1']) });
    expect(html).toContain('<button type="button" aria-disabled="true" aria-label="Run nightly now">Run now</button>');
    expect(html).toContain('<button type="button" aria-disabled="false" aria-label="Run weekly now">Run now</button>');
    expect(html).not.toMatch(/<button[^>]* disabled[ >]/);
  });

  it('says so when there are no schedules', () => {
    expect(table({ schedules: [] })).toContain('No schedules yet');
  });
});

describe('a schedule\'s history', () => {
  const run = (over: Partial<ScheduleRun>): ScheduleRun => ({
    runId: 'r',
    scheduleId: 'sch_1',
    sessionId: 'ses_1',
    trigger: 'cron',
    startedAt: '2026-11-27T03:00:00.000Z',
    endedAt: '2026-11-27T03:00:41.300Z',
    outcome: 'completed',
    stopReason: 'end_turn',
    costUsd: 0.0123,
    error: null,
    ...over,
  });

  it('lists outcome, duration, cost and a link to each run\'s session', () => {
    const html = renderToString(
      h(ScheduleHistoryTable, {
        name: 'nightly',
        runs: [
          run({ runId: 'r3', sessionId: 'ses_3', endedAt: null, outcome: null, stopReason: null, costUsd: 0, trigger: 'manual' }),
          run({ runId: 'r2', sessionId: null, outcome: 'skipped', stopReason: null, costUsd: 0, error: 'a run is still going', endedAt: '2026-11-27T03:00:00.000Z' }),
          run({ runId: 'r1', outcome: 'timed_out', stopReason: 'cancelled', error: 'aborted after 180 s' }),
        ],
      }),
    );
    const rows = html.split('<tr>').slice(2);
    expect(rows[0]).toContain('manual');
    expect(rows[0]).toContain('running');
    expect(rows[0]).toContain('href="#/session/ses_3"');
    expect(rows[1]).toContain('skipped');
    expect(rows[1]).toContain('a run is still going');
    expect(rows[1]).toContain('0 ms');
    expect(rows[1]).toContain('>none<');
    expect(rows[2]).toContain('<td class="schedule-bad">timed out (cancelled)');
    expect(rows[2]).toContain('41.3 s');
    expect(rows[2]).toContain('$0.01');
    expect(rows[2]).toContain('href="#/session/ses_1"');
    expect(unnamedControls(html)).toEqual([]);
  });

  it('says when a schedule has not run', () => {
    expect(renderToString(h(ScheduleHistoryTable, { name: 'nightly', runs: [] }))).toContain('nightly has not run yet.');
  });
});

describe('the schedule form', () => {
  const form = (issues = {}, general: string[] = []): string =>
    renderToString(h(ScheduleForm, { initial: emptyScheduleForm(), issues, general, busy: false, onSubmit: noop, onCancel: noop }));

  it('labels every control and names every button', () => {
    const html = form();
    expect(unnamedControls(html)).toEqual([]);
    for (const id of ['name', 'cron', 'timezone', 'prompt', 'cwd', 'agent', 'model', 'timeoutSeconds', 'budgetUsd', 'permissionMode', 'overlap']) {
      expect(html).toContain(`for="schedule-${id}"`);
      expect(html).toContain(`id="schedule-${id}"`);
    }
    expect(html).toContain('Add schedule');
  });

  it('shows the daemon\'s problem beside its field, tied to the input, and the rest above', () => {
    const html = form({ cron: '"61" is not a minute (0-59)' }, ['The daemon refused the schedule: invalid params']);
    expect(html).toMatch(/<input id="schedule-cron"[^>]*aria-describedby="schedule-cron-hint schedule-cron-problem"[^>]*aria-invalid="true"/);
    expect(html).toContain('<small id="schedule-cron-problem" class="form-problem" role="alert">&quot;61&quot; is not a minute (0-59)</small>');
    expect(html).toContain('<div role="alert" class="form-problems"><p>The daemon refused the schedule: invalid params</p></div>');
    expect(html).toMatch(/<input id="schedule-name"[^>]*aria-invalid="false"/);
  });

  it('says which schedule it edits', () => {
    const html = renderToString(h(ScheduleForm, { editing: 'nightly', initial: emptyScheduleForm(), issues: {}, general: [], busy: true, onSubmit: noop, onCancel: noop }));
    expect(html).toContain('Edit schedule nightly');
    expect(html).toContain('<button type="submit" disabled>Save schedule</button>');
  });
});
