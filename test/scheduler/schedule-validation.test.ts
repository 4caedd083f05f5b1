import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScheduleTestBed, type ScheduleTestBed } from '../support/schedule-test-bed.js';

describe('schedules/* checks and errors', () => {
  let bed: ScheduleTestBed;
  const add = (fields: Record<string, unknown>) =>
    bed.daemon.peer.request('schedules/add', { name: 'job', cron: '0 9 * * 1-5', prompt: 'p', cwd: bed.workspace, ...fields });

  beforeEach(async () => {
    bed = await startScheduleTestBed((workspace) => ({ schedules: [{ name: 'from-config', cron: '0 9 * * *', prompt: 'p', cwd: workspace }] }));
  });

  afterEach(async () => {
    await bed.cleanup();
  });

  it('names the bad cron field and its range', async () => {
    const minute = await add({ cron: '61 * * * *' });
    expect(minute.error).toMatchObject({ code: -32602 });
    expect(minute.error!.message).toBe(
      'invalid params for schedules/add: cron: the minute field "61" of "61 * * * *" is not valid (Invalid value for minute: 61); minutes are 0-59',
    );
    const day = await add({ cron: '0 0 9 32 * *' });
    expect(day.error!.message).toContain('the day-of-month field "32" of "0 0 9 32 * *" is not valid');
    const weekday = await add({ cron: '0 9 * * MON-XYZ' });
    expect(weekday.error!.message).toContain('the day-of-week field "MON-XYZ"');
    const count = await add({ cron: '0 9 * *' });
    expect(count.error!.message).toContain('"0 9 * *" has 4 field(s); write 5 (minute hour day-of-month month day-of-week) or 6 (second first)');
  });

  it('refuses an unknown time zone and says what to write', async () => {
    const answer = await add({ timezone: 'Mars/Olympus' });
    expect(answer.error!.message).toBe(
      'invalid params for schedules/add: timezone: unknown time zone "Mars/Olympus"; use an IANA name like "Europe/Berlin", "America/New_York" or "UTC" (see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones)',
    );
    expect((await add({ timezone: 'Europe/Berlin' })).result.schedule.timezone).toBe('Europe/Berlin');
  });

  it('refuses a relative, missing or non-directory cwd, and reports every bad field at once', async () => {
    expect((await add({ cwd: 'relative/dir' })).error!.message).toContain('cwd: must be an absolute path, got "relative/dir"');
    expect((await add({ cwd: join(bed.workspace, 'missing') })).error!.message).toContain(`cwd: ${join(bed.workspace, 'missing')} does not exist`);
    const all = await add({ cron: '* 24 * * *', timezone: 'Nowhere', cwd: 'x', model: 'gpt-4.1' });
    expect(all.error!.data).toEqual({
      issues: [
        expect.stringMatching(/^cron: the hour field "24"/),
        expect.stringMatching(/^timezone: /),
        expect.stringMatching(/^cwd: /),
        'model: expected a string like "openai/gpt-4.1": a provider id, a slash, then the model id, got "gpt-4.1"',
      ],
    });
  });

  it('refuses a name already taken, by an added or a config schedule', async () => {
    expect((await add({})).result.schedule.name).toBe('job');
    expect((await add({})).error!.message).toContain('name: a schedule named "job" already exists');
    expect((await add({ name: 'from-config' })).error!.message).toContain('a schedule named "from-config" already exists in config.json');
  });

  it('config schedules are read-only over the protocol; unknown ids are not found', async () => {
    const { peer } = bed.daemon;
    const update = await peer.request('schedules/update', { id: 'from-config', enabled: false });
    expect(update.error).toMatchObject({ code: -32602 });
    expect(update.error!.message).toContain('schedule "from-config" comes from config.json and cannot be updated over the protocol; edit its entry under "schedules" in config.json instead');
    const remove = await peer.request('schedules/remove', { id: 'from-config' });
    expect(remove.error!.message).toContain('cannot be removed over the protocol; edit its entry under "schedules" in config.json');
    for (const method of ['schedules/update', 'schedules/remove', 'schedules/run', 'schedules/history'] as const) {
      const answer = await peer.request(method, { id: 'sch_nope' });
      expect(answer.error).toMatchObject({ code: -32002, message: 'schedule "sch_nope" not found; list schedules with schedules/list (agentd schedules list)' });
    }
  });

  it('updates check the result too, clear optional fields with null, and disabling drops the next run time', async () => {
    const { peer } = bed.daemon;
    const { schedule } = (await add({ model: 'local/e2e-model', budgetUsd: 0.5 })).result;
    expect((await peer.request('schedules/update', { id: schedule.id, cron: '* * * 13 *' })).error!.message).toContain('the month field "13"');
    const dir = join(bed.workspace, 'sub');
    mkdirSync(dir);
    const changed = await peer.call('schedules/update', { id: schedule.id, model: null, budgetUsd: null, cwd: dir, enabled: false, overlap: 'queue' });
    expect(changed.schedule).toMatchObject({ id: schedule.id, cwd: dir, enabled: false, overlap: 'queue', nextRunAt: null });
    expect(changed.schedule).not.toHaveProperty('model');
    expect(changed.schedule).not.toHaveProperty('budgetUsd');
    rmdirSync(dir);
    expect((await peer.request('schedules/update', { id: schedule.id, name: 'renamed' })).error!.message).toContain(`cwd: ${dir} does not exist`);
    expect(await peer.call('schedules/remove', { id: schedule.id })).toEqual({});
    expect((await peer.call('schedules/list', {})).schedules.map((s: any) => s.id)).toEqual(['from-config']);
  });
});
