import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openRpc, rawGet } from '../../support/dashboard-client.js';
import { startDashboardTestBed, type DashboardTestBed } from '../../support/dashboard-test-bed.js';

describe('[F19 browser] the dashboard against DNS rebinding and foreign pages', () => {
  let bed: DashboardTestBed;
  let origin: string;
  let port: number;
  let cookie: string;
  beforeAll(async () => {
    bed = await startDashboardTestBed();
    const url = await bed.loginUrl();
    origin = new URL(url).origin;
    port = Number(new URL(url).port);
    cookie = (await logIn(url)).cookie;
  });
  afterAll(async () => {
    await bed.close();
  });

  const foreignHosts = (): string[] => [
    `attacker.example:${port}`,
    `attacker.example`,
    `127.0.0.1:${port + 1}`,
    `127.0.0.1`,
    `127.0.0.1.:${port}`,
    `localhost.:${port}`,
    `LOCALHOST:${port}`,
    `Localhost:${port}`,
    `[::1]:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `attacker.localhost:${port}`,
    `localhost.attacker.example:${port}`,
    `127.0.0.2:${port}`,
    `2130706433:${port}`,
    `127.1:${port}`,
    `0.0.0.0:${port}`,
    `localhost:${port}@attacker.example`,
    `localhost:0${port}`,
  ];

  it('answers the bound address and localhost with the bound port', async () => {
    expect((await rawGet(origin, '/', { Cookie: cookie })).status).toBe(200);
    expect((await rawGet(origin, '/', { Cookie: cookie, Host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses every other Host, with the cookie, on the page, an asset and the login', async () => {
    for (const host of foreignHosts()) {
      for (const path of ['/', '/assets/app.js']) {
        const answer = await rawGet(origin, path, { Cookie: cookie, Host: host });
        expect(answer.status, `${host} ${path}`).toBe(421);
        expect(answer.body).toMatch(/answers only to Host/);
        expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      }
    }
  });

  it('refuses a login through a foreign Host without spending the token', async () => {
    const url = new URL(await bed.loginUrl());
    const refused = await rawGet(url.origin, url.pathname + url.search, { Host: `attacker.example:${port}` });
    expect(refused.status).toBe(421);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await logIn(url.href)).answer.status).toBe(303);
  });

  it('refuses a WebSocket upgrade through a foreign Host, even from that host\'s own page', async () => {
    for (const host of foreignHosts()) {
      const socket = await openRpc(origin, { Cookie: cookie, Host: host, Origin: `http://${host}` });
      expect(socket, host).toMatchObject({ kind: 'refused', status: 421 });
    }
  });

  it('opens the WebSocket only for the page\'s own Origin', async () => {
    const foreign = [
      'http://attacker.example',
      `http://attacker.example:${port}`,
      `http://127.0.0.1:${port + 1}`,
      `http://localhost:${port}`,
      `https://127.0.0.1:${port}`,
      `ws://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}.attacker.example`,
      `HTTP://127.0.0.1:${port}`,
      'null',
      '',
      'file://',
    ];
    for (const value of foreign) {
      const socket = await openRpc(origin, { Cookie: cookie, Origin: value });
      expect(socket, value).toMatchObject({ kind: 'refused', status: 403 });
    }
    const absent = await openRpc(origin, { Cookie: cookie });
    expect(absent).toMatchObject({ kind: 'refused', status: 403 });
    if (absent.kind === 'refused') expect(absent.body).toMatch(/no Origin/);
    // The same page reached as localhost is its own origin there.
    const viaLocalhost = await openRpc(origin, { Cookie: cookie, Host: `localhost:${port}`, Origin: `http://localhost:${port}` });
    expect(viaLocalhost.kind).toBe('open');
    if (viaLocalhost.kind === 'open') viaLocalhost.socket.close();
    const own = await openRpc(origin, { Cookie: cookie, Origin: origin });
    expect(own.kind).toBe('open');
    if (own.kind === 'open') own.socket.close();
  });

  it('refuses the upgrade without the cookie even from the page\'s own Origin, and anywhere but /rpc', async () => {
    expect(await openRpc(origin, { Origin: origin })).toMatchObject({ kind: 'refused', status: 401 });
    expect(await openRpc(origin, { Origin: origin, Cookie: 'agentd_session=forged' })).toMatchObject({ kind: 'refused', status: 401 });
  });
});
