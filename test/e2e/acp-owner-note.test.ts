import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome, spawnDaemon, until } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

// `agentd acp` with no daemon answering reads the owner's note beside the data directory's
// lock before anything else: no note, or a dead owner's, means it starts the daemon without
// asking the lock (SQLite) first. These check the note is trusted no further than that.
describe('`agentd acp` and the owner note of the data directory', () => {
  let home: ReturnType<typeof makeHome>;
  let note: string;
  beforeEach(() => {
    home = makeHome({ server: { idleExitMs: 200 } });
    mkdirSync(join(home.home, 'data'), { recursive: true });
    note = join(home.home, 'data', 'agentd.owner.json');
  });
  afterEach(async () => {
    // The daemon a bridge started exits 200 ms after its last client, removing its note.
    await until(() => !existsSync(note), 10_000, 'the on-demand daemon to exit');
    home.cleanup();
  });

  it("starts the daemon when the note names a process that has exited (a crashed owner's)", async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(note, JSON.stringify({ pid: gone, startedAt: new Date().toISOString(), socketPath: null, listen: null }));
    const bridge = spawnDaemon(['acp'], daemonEnv(home.home));
    const init = (await bridge.peer.call('initialize', { protocolVersion: 1 })) as { protocolVersion: number };
    expect(init.protocolVersion).toBe(1);
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });

  it('names the owner that holds the lock before it wrote its note, and starts no daemon that stays', async () => {
    const owner = spawnDaemon(['serve'], daemonEnv(home.home));
    await owner.peer.call('initialize', { protocolVersion: 1 });
    await owner.peer.call('session/list', {}); // the daemon proper holds the lock from here
    rmSync(note);
    const acp = await runCli(['acp'], daemonEnv(home.home));
    expect(acp.code).toBe(1);
    expect(acp.stderr).toContain(`owns the data directory ${join(home.home, 'data')}`);
    expect(existsSync(join(home.home, 'run', 'agentd.sock'))).toBe(false);
    owner.child.stdin.end();
    await owner.exited;
  });
});
