import { afterEach, describe, expect, it } from 'vitest';
import { logIn, openRpc } from '../support/dashboard-client.js';
import { daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

describe('agentd serve --http', () => {
  let home: ReturnType<typeof makeHome>;
  const children: DaemonChild[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.child.stdin.end();
      await child.exited;
    }
    home.cleanup();
  });

  it('serves the page on the port the OS picked, named by daemon/status, beside stdio', async () => {
    home = makeHome({});
    const daemon = spawnDaemon(['serve', '--http', '127.0.0.1:0'], daemonEnv(home.home));
    children.push(daemon);
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const status = await daemon.peer.call('daemon/status', {});
    expect(status.http).toMatch(/^http:\/\/127\.0\.0\.1:(\d+)$/);
    expect(status.http).not.toBe('http://127.0.0.1:0');
    const { url } = await daemon.peer.call('dashboard/login', {});
    expect(new URL(url).origin).toBe(status.http);
    const { cookie, answer } = await logIn(url);
    expect(answer.status).toBe(303);
    const socket = await openRpc(status.http!, { Cookie: cookie, Origin: status.http! });
    expect(socket.kind).toBe('open');
    if (socket.kind !== 'open') return;
    socket.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }));
    expect((await socket.next((m) => m.id === 1)).result.protocolVersion).toBe(1);
    // The page's client is one of the daemon's clients.
    expect((await daemon.peer.call('daemon/status', {})).clients).toBe(2);
    socket.socket.close();
    expect(daemon.stderr()).toContain(`serving the dashboard on ${status.http}`);
  });

  it('refuses a host that is not loopback without --http-any-host, and a malformed address', async () => {
    home = makeHome({});
    const env = daemonEnv(home.home);
    const wide = await runCli(['serve', '--http', '0.0.0.0:0'], env);
    expect(wide.code).toBe(1);
    expect(wide.stderr).toMatch(/0\.0\.0\.0 is not a loopback address.*pass --http-any-host/);
    const bad = await runCli(['serve', '--http', 'localhost:99999'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--http expects \[HOST:\]PORT/);
  });

  it('rejects a server.http in config.json that is not [HOST:]PORT, naming it', async () => {
    home = makeHome({ server: { http: 'http://localhost:7780' } });
    const result = await runCli(['serve', '--stdio'], daemonEnv(home.home));
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/server\.http/);
    expect(result.stderr).toMatch(/expected \[HOST:\]PORT/);
  });
});
