import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/tools/shell/kill-process-group.js';
import { daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { agentdMeta } from '../support/agentd-meta.js';

const HANGS = fileURLToPath(new URL('../fixtures/mcp/hangs-in-initialize.mjs', import.meta.url));

/**
 * Every MCP server process the daemon started goes with it — a config server and a
 * session's own, both stuck in `initialize`, ignoring SIGTERM, each with a child that
 * ignores it too — whether the daemon gets SIGTERM, SIGINT or the end of its stdin.
 */
describe('MCP servers leave no orphans', () => {
  let home: ReturnType<typeof makeHome>;
  let dir: string;
  let daemon: DaemonChild;
  let pids: number[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentd-orphans-'));
    home = makeHome({ mcpServers: { hung: { command: process.execPath, args: [HANGS], env: { MCP_PID_FILE: join(dir, 'config.pids') } } } });
    daemon = spawnDaemon(['serve'], daemonEnv(home.home), dir);
    pids = [];
  });

  afterEach(() => {
    // Whatever a failed test left behind.
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    daemon.child.kill('SIGKILL');
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startHungServers(): Promise<void> {
    const { peer } = daemon;
    await peer.call('initialize', { protocolVersion: 1 });
    const own = { name: 'own', command: process.execPath, args: [HANGS], env: [{ name: 'MCP_PID_FILE', value: join(dir, 'own.pids') }] };
    // Answered while both servers hang in initialize: nothing waits for them.
    const answer = await peer.call('session/new', { cwd: dir, mcpServers: [own] });
    expect(agentdMeta(answer).mcpServers).toEqual(
      expect.arrayContaining([
        { name: 'hung', state: 'starting', tools: [] },
        { name: 'own', state: 'starting', tools: [] },
      ]),
    );
    await until(() => existsSync(join(dir, 'config.pids')) && existsSync(join(dir, 'own.pids')), 10_000, 'both servers and their children to run');
    pids = ['config.pids', 'own.pids'].flatMap((file) => readFileSync(join(dir, file), 'utf8').trim().split(' ').map(Number));
    expect(pids).toHaveLength(4);
    expect(pids.every(processAlive)).toBe(true);
  }

  it.each(['SIGTERM', 'SIGINT'] as const)('stops every server process, children included, on %s', async (signal) => {
    await startHungServers();
    daemon.child.kill(signal);
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    await until(() => !pids.some(processAlive), 10_000, 'the servers and their children to be gone');
  });

  it('stops every server process, children included, at the end of stdin', async () => {
    await startHungServers();
    daemon.child.stdin.end();
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    await until(() => !pids.some(processAlive), 10_000, 'the servers and their children to be gone');
  });
});
