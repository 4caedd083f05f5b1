import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { logIn, openRpc } from '../../support/dashboard-client.js';
import { until } from '../../support/daemon-process.js';
import { startDashboardTestBed, type DashboardTestBed } from '../../support/dashboard-test-bed.js';

/** A TCP connection to the page's port that sends nothing; resolves with what it was told before it closed. */
function idleConnection(origin: string): { socket: Socket; ended: Promise<string>; connected: Promise<void> } {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  return {
    socket,
    connected: new Promise((resolve) => socket.once('connect', () => resolve())),
    ended: new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')))),
  };
}

describe('[F19 browser] the dashboard\'s connection limits (TCP\'s, from the same settings)', () => {
  let bed: DashboardTestBed;
  afterEach(async () => {
    await bed.close();
  });

  it('refuses connections beyond server.maxUnauthenticatedConnections until one logs in', async () => {
    bed = await startDashboardTestBed({ server: { maxUnauthenticatedConnections: 2, maxConnections: 10 } });
    const url = await bed.loginUrl();
    const origin = new URL(url).origin;
    const waiting = [idleConnection(origin), idleConnection(origin)];
    await Promise.all(waiting.map((c) => c.connected));
    // The server may accept the third before it has counted the first two: probe until it has.
    let told = '';
    await until(async () => {
      const probe = idleConnection(origin);
      const answer = await Promise.race([probe.ended, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))]);
      if (answer === undefined) probe.socket.destroy();
      told = answer ?? '';
      return answer !== undefined;
    }, 10_000, 'a connection refused for the cap');
    expect(told).toMatch(/^HTTP\/1\.1 503/);
    expect(told).toContain('server.maxUnauthenticatedConnections is 2');
    for (const c of waiting) c.socket.destroy();
    await Promise.all(waiting.map((c) => c.ended));
    expect((await logIn(url)).answer.status).toBe(303);
  });

  it('refuses connections beyond server.maxConnections, logged-in WebSockets counted', async () => {
    bed = await startDashboardTestBed({ server: { maxConnections: 2 } });
    const url = await bed.loginUrl();
    const origin = new URL(url).origin;
    const { cookie } = await logIn(url);
    const sockets = [await openRpc(origin, { Cookie: cookie, Origin: origin }), await openRpc(origin, { Cookie: cookie, Origin: origin })];
    expect(sockets.map((s) => s.kind)).toEqual(['open', 'open']);
    const told = await idleConnection(origin).ended;
    expect(told).toMatch(/^HTTP\/1\.1 503/);
    expect(told).toContain('server.maxConnections is 2');
    expect(bed.daemon.stderr()).toContain('http: refused a connection');
    for (const s of sockets) if (s.kind === 'open') s.socket.close();
  });

  it('closes a connection that has not logged in within server.authTimeoutMs', async () => {
    bed = await startDashboardTestBed({ server: { authTimeoutMs: 200 } });
    const origin = new URL(await bed.loginUrl()).origin;
    const silent = idleConnection(origin);
    await silent.connected;
    // Closed by the daemon: nothing was sent, so nothing but the deadline ends it.
    expect(await silent.ended).toBe('');
  });
});
