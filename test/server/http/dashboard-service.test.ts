import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDaemonShell } from '../../../src/daemon/create-daemon-shell.js';
import { loadDaemonSettings } from '../../../src/daemon/load-daemon-settings.js';

describe('[F19 browser] where the dashboard may listen', () => {
  const shells: Array<{ shutdown(): Promise<void> }> = [];
  const homes: string[] = [];
  afterEach(async () => {
    for (const shell of shells.splice(0)) await shell.shutdown();
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  const shell = (options: { httpAnyHost?: boolean } = {}) => {
    const home = mkdtempSync(join(tmpdir(), 'agentd-shell-'));
    homes.push(home);
    const created = createDaemonShell(loadDaemonSettings({ cwd: home, env: { AGENTD_HOME: home }, version: 'test', write: () => undefined }), options);
    shells.push(created);
    return created;
  };

  it('refuses a host that is not loopback unless --http-any-host, naming the flag', async () => {
    for (const host of ['192.0.2.1', '0.0.0.0', '::', '10.0.0.1', 'example.com']) {
      await expect(shell().dashboard!.serve({ host, port: 0 })).rejects.toThrow(/not a loopback address.*--http-any-host/);
    }
  });

  it('refuses the wildcard addresses even with --http-any-host: the Host check needs the real one', async () => {
    for (const host of ['0.0.0.0', '::']) {
      await expect(shell({ httpAnyHost: true }).dashboard!.serve({ host, port: 0 })).rejects.toThrow(/give the address browsers will use/);
    }
  });

  it('says which address is taken when the port is in use', async () => {
    const origin = await shell().dashboard!.serve({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(origin).port);
    await expect(shell().dashboard!.serve({ host: '127.0.0.1', port })).rejects.toThrow(`127.0.0.1:${port} is in use by another program`);
  });

  it('accepts every loopback spelling, and serves once', async () => {
    const dashboard = shell().dashboard!;
    expect(dashboard.origin()).toBeNull();
    const origin = await dashboard.serve({ host: '127.0.0.1', port: 0 });
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(dashboard.origin()).toBe(origin);
    await expect(dashboard.serve({ host: '127.0.0.1', port: 0 })).rejects.toThrow(/served already/);
    expect((await dashboard.login()).url.startsWith(`${origin}/login?token=`)).toBe(true);
    expect(await shell().dashboard!.serve({ host: '::1', port: 0 })).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect(await shell().dashboard!.serve({ host: 'localhost', port: 0 })).toMatch(/^http:\/\/localhost:\d+$/);
  });
});
