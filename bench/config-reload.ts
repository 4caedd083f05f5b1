import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchHome, median, percentile, spawnStdioDaemon } from './support/daemon-client.js';

interface DaemonEvent {
  type: string;
  file?: string;
  startedAt?: string;
}

/**
 * Live configuration, as a user sees it on a spawned `agentd serve --stdio`:
 * - reload: a save of a project's `.agentd/config.json` to its `config_reloaded` event
 *   (the watcher waits 150 ms of quiet before applying, so a burst of saves applies once;
 *   that wait is part of the figure), and the same for an invalid save's `config_rejected`;
 * - cron lateness: how long after its second a one-second cron run starts.
 */
export async function benchConfigReload(saves = 20, cronRuns = 10): Promise<Record<string, number>> {
  const project = mkdtempSync(join(tmpdir(), 'agentd-bench-project-'));
  mkdirSync(join(project, '.agentd'));
  const configFile = join(project, '.agentd', 'config.json');
  writeFileSync(configFile, JSON.stringify({ maxTurns: 1 }));
  const { home, cleanup } = benchHome({
    schedules: [{ name: 'tick', cron: '* * * * * *', prompt: 'tick', cwd: project, enabled: false }],
  });
  const daemon = spawnStdioDaemon(home);
  const waiters: Array<{ test: (e: DaemonEvent) => boolean; resolve(e: DaemonEvent): void }> = [];
  daemon.connection.onNotification('agentd/daemonEvent', (params: { event: DaemonEvent }) => {
    const at = waiters.findIndex((w) => w.test(params.event));
    if (at >= 0) waiters.splice(at, 1)[0]!.resolve(params.event);
  });
  const next = (test: (e: DaemonEvent) => boolean): Promise<DaemonEvent> => new Promise((resolve) => waiters.push({ test, resolve }));
  try {
    await daemon.connection.sendRequest('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    await daemon.connection.sendRequest('session/new', { cwd: project, mcpServers: [] });
    // The project's watch is set up right after session/new; give it a moment before the first save.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const reloaded: number[] = [];
    const rejected: number[] = [];
    for (let i = 0; i < saves; i++) {
      let start = performance.now();
      const applied = next((e) => e.type === 'config_reloaded' && e.file === configFile);
      writeFileSync(configFile, JSON.stringify({ maxTurns: 2 + i }));
      await applied;
      reloaded.push(performance.now() - start);
      start = performance.now();
      const refused = next((e) => e.type === 'config_rejected');
      writeFileSync(configFile, JSON.stringify({ maxTurns: 'ten' }));
      await refused;
      rejected.push(performance.now() - start);
    }

    // Config schedules are read-only over the protocol: enable it by editing config.json, as a
    // user would. Runs fail at once (no model is configured): their start time is what counts.
    const late: number[] = [];
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ schedules: [{ name: 'tick', cron: '* * * * * *', prompt: 'tick', cwd: project }] }));
    for (let i = 0; i < cronRuns; i++) {
      const started = Date.parse((await next((e) => e.type === 'schedule_run_started')).startedAt!);
      late.push(started % 1000);
    }
    return {
      saves,
      reloadMedianMs: median(reloaded),
      reloadP90Ms: percentile(reloaded, 90),
      rejectMedianMs: median(rejected),
      rejectP90Ms: percentile(rejected, 90),
      cronRuns,
      cronLateMedianMs: median(late),
      cronLateMaxMs: Math.max(...late),
    };
  } finally {
    daemon.connection.dispose();
    daemon.child.stdin.end();
    await new Promise((resolve) => daemon.child.once('exit', resolve));
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}
