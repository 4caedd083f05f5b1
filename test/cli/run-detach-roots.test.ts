import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startClientDaemon, type ClientDaemon } from '../support/client-daemon.js';
import { runCli } from '../support/run-cli.js';

/* `agentd run --detach` in a folder the running daemon does not serve (`cluster.roots`): refused at once, never queued. */
describe('agentd run --detach outside the daemon\'s roots', () => {
  let served: ClientDaemon | undefined;
  let root: string | undefined;
  afterEach(async () => {
    await served?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('exits 1 naming the folder and the daemon\'s roots, and queues nothing', async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-root-')));
    served = await startClientDaemon({ cluster: { roots: [root] } });
    const { env, workspace, replay } = served;
    const refused = await runCli(['run', '--detach', '--cwd', workspace, 'Write the changelog'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`this daemon does not serve ${workspace} (its cluster.roots are ${root})`);
    expect(refused.stderr).toContain("add the folder to this daemon's cluster.roots in config.json and restart it");
    expect(replay.requests).toHaveLength(0);
  }, 60_000);
});
