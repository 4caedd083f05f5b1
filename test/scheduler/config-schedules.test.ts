import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScheduleConfig } from '../../src/config/config-schema.js';
import { startDaemon, type StartedDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';

describe('Scheduler.setConfigSchedules (what a config reload calls)', () => {
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let started: StartedDaemon;
  const schedule = (name: string, cron: string): ScheduleConfig => ({ name, cron, timezone: 'UTC', prompt: 'p', cwd: workspace });

  beforeEach(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    home = makeHome({ schedules: [schedule('a', '0 1 * * *'), schedule('b', '0 2 * * *')] });
    started = await startDaemon({ cwd: workspace, env: daemonEnv(home.home), version: 'test', write: () => undefined });
  });

  afterEach(async () => {
    await started.shutdown();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('replaces the config-sourced set: added, changed and removed ones; added-over-the-protocol ones stay', async () => {
    const { scheduler } = started.daemon;
    const added = await scheduler.add({ name: 'mine', cron: '0 3 * * *', timezone: 'UTC', prompt: 'p', cwd: workspace });
    expect(scheduler.list().map((s) => [s.id, s.source])).toEqual([
      ['a', 'config'],
      ['b', 'config'],
      [added.id, 'protocol'],
    ]);

    scheduler.setConfigSchedules([schedule('a', '30 1 * * *'), schedule('c', '0 4 * * *')]);
    const listed = scheduler.list();
    expect(listed.map((s) => s.id)).toEqual(['a', 'c', added.id]);
    expect(listed[0]).toMatchObject({ cron: '30 1 * * *', nextRunAt: expect.stringMatching(/T01:30:00\.000Z$/) });

    scheduler.setConfigSchedules([]);
    expect(scheduler.list().map((s) => s.id)).toEqual([added.id]);
  });
});
