import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../../../../protocol/index.js';
import {
  addScheduleRequest,
  emptyScheduleForm,
  scheduleForm,
  updateScheduleRequest,
} from '../../../../../clients/web/src/views/schedules/schedule-form-values.js';

const stored: Schedule = {
  id: 'sch_1',
  name: 'morning-review',
  cron: '0 9 * * 1-5',
  timezone: 'Europe/Berlin',
  prompt: 'Summarize yesterday.',
  cwd: '/home/ada/proj',
  agent: 'plan',
  timeoutMs: 180_000,
  budgetUsd: 0.5,
  permissionMode: 'ask',
  overlap: 'skip',
  runMissed: false,
  enabled: true,
  source: 'protocol',
  nextRunAt: '2026-11-27T08:00:00.000Z',
};

describe('addScheduleRequest', () => {
  it('sends what was typed and leaves empty optional fields to the daemon', () => {
    const values = { ...emptyScheduleForm(), name: ' nightly ', cron: '@daily', prompt: 'Check the build.', cwd: '/srv/app' };
    expect(addScheduleRequest(values)).toEqual({
      ok: true,
      value: { name: 'nightly', cron: '@daily', prompt: 'Check the build.', cwd: '/srv/app', permissionMode: 'ask', overlap: 'skip', runMissed: false, enabled: true },
    });
  });

  it('converts the timeout from seconds and takes the budget in dollars', () => {
    const values = { ...emptyScheduleForm(), name: 'n', cron: '@daily', prompt: 'p', cwd: '/srv', timeoutSeconds: '90.5', budgetUsd: '0.25', model: 'local/m', agent: 'build', timezone: 'UTC' };
    const parsed = addScheduleRequest(values);
    expect(parsed.ok && parsed.value).toMatchObject({ timeoutMs: 90_500, budgetUsd: 0.25, model: 'local/m', agent: 'build', timezone: 'UTC' });
  });

  it('names each empty required field and what to write there', () => {
    const parsed = addScheduleRequest(emptyScheduleForm());
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.issues).sort()).toEqual(['cron', 'cwd', 'name', 'prompt']);
    expect(parsed.issues.cron).toContain('"0 9 * * 1-5"');
  });

  it.each([
    ['timeoutSeconds', 'soon', 'timeoutMs'],
    ['timeoutSeconds', '0', 'timeoutMs'],
    ['timeoutSeconds', '-5', 'timeoutMs'],
    ['timeoutSeconds', '0.0001', 'timeoutMs'],
    ['budgetUsd', '$1', 'budgetUsd'],
    ['budgetUsd', '0', 'budgetUsd'],
    ['budgetUsd', 'Infinity', 'budgetUsd'],
  ] as const)('refuses %s "%s", naming the field and quoting the input', (input, text, field) => {
    const parsed = addScheduleRequest({ ...emptyScheduleForm(), name: 'n', cron: '@daily', prompt: 'p', cwd: '/srv', [input]: text });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues[field]).toContain(`"${text}"`);
  });
});

describe('updateScheduleRequest', () => {
  it('sends only the id when nothing changed', () => {
    expect(updateScheduleRequest(stored, scheduleForm(stored))).toEqual({ ok: true, value: { id: 'sch_1' } });
  });

  it('sends the changed fields, and null for an emptied agent, model or budget', () => {
    const values = { ...scheduleForm(stored), cron: '0 10 * * 1-5', agent: '', budgetUsd: '', timeoutSeconds: '60', enabled: false, overlap: 'queue' as const };
    expect(updateScheduleRequest(stored, values)).toEqual({
      ok: true,
      value: { id: 'sch_1', cron: '0 10 * * 1-5', agent: null, budgetUsd: null, timeoutMs: 60_000, enabled: false, overlap: 'queue' },
    });
  });

  it('asks for a time zone and a timeout rather than emptying them', () => {
    const parsed = updateScheduleRequest(stored, { ...scheduleForm(stored), timezone: ' ', timeoutSeconds: '' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.timezone).toContain('"Europe/Berlin"');
    expect(parsed.issues.timeoutMs).toContain('180');
  });

  it('fills the form from a schedule without optional fields as empty inputs', () => {
    const { agent: _agent, budgetUsd: _budget, ...bare } = stored;
    expect(scheduleForm(bare)).toMatchObject({ agent: '', model: '', budgetUsd: '', timeoutSeconds: '180' });
  });
});
