import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_TOKEN_TTL_MS } from '../../../src/server/http/login-tokens.js';
import { SESSION_TTL_MS } from '../../../src/server/http/dashboard-sessions.js';
import { logIn, openRpc, rawGet, type HttpAnswer } from '../../support/dashboard-client.js';
import { APP_JS, INDEX_HTML, startDashboardTestBed, type DashboardTestBed } from '../../support/dashboard-test-bed.js';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function expectSecurityHeaders(answer: HttpAnswer): void {
  expect(answer.headers['content-security-policy']).toBe(CSP);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('no-referrer');
}

describe('[F19 browser] the dashboard login', () => {
  let bed: DashboardTestBed;
  beforeEach(async () => {
    bed = await startDashboardTestBed();
  });
  afterEach(async () => {
    await bed.close();
  });

  it('mints a loopback login address with a 32-byte token valid for 10 minutes, and daemon/status names the origin', async () => {
    const before = await bed.daemon.peer.call('daemon/status', {});
    expect(before.http).toBeNull();
    const { url, expiresAt } = await bed.daemon.peer.call('dashboard/login', {});
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(LOGIN_TOKEN_TTL_MS - 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(LOGIN_TOKEN_TTL_MS);
    expect((await bed.daemon.peer.call('daemon/status', {})).http).toBe(new URL(url).origin);
  });

  it('refuses the page, an asset and the WebSocket without the cookie, saying how to log in', async () => {
    const origin = new URL(await bed.loginUrl()).origin;
    for (const path of ['/', '/index.html', '/assets/app.js', '/assets/missing.js', '/rpc', '/anything']) {
      const answer = await rawGet(origin, path);
      expect(answer.status, path).toBe(401);
      expect(answer.body).toContain('agentd dashboard');
      expectSecurityHeaders(answer);
    }
    const socket = await openRpc(origin, { Origin: origin });
    expect(socket).toMatchObject({ kind: 'refused', status: 401 });
    // A cookie the daemon never issued, or one of the right name with the wrong value, is no cookie.
    for (const cookie of ['agentd_session=', 'agentd_session=AAAA', 'other=1', `agentd_session=${'A'.repeat(43)}`]) {
      expect((await rawGet(origin, '/', { Cookie: cookie })).status, cookie).toBe(401);
    }
  });

  it('exchanges the token once for an HttpOnly, SameSite=Strict cookie and a redirect to the page', async () => {
    const url = await bed.loginUrl();
    const origin = new URL(url).origin;
    const { cookie, answer } = await logIn(url);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expectSecurityHeaders(answer);
    const setCookie = [answer.headers['set-cookie']].flat();
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(/^agentd_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);

    const page = await rawGet(origin, '/', { Cookie: cookie });
    expect(page).toMatchObject({ status: 200, body: INDEX_HTML });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(page);
    const asset = await rawGet(origin, '/assets/app.js', { Cookie: cookie });
    expect(asset).toMatchObject({ status: 200, body: APP_JS });
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expectSecurityHeaders(asset);
    const head = await rawGet(origin, '/assets/app.js', { Cookie: cookie }, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    // Another daemon on loopback may have set a cookie of the same name: every one is tried.
    expect((await rawGet(origin, '/', { Cookie: `agentd_session=stale; ${cookie}` })).status).toBe(200);

    const again = await logIn(url);
    expect(again.answer.status).toBe(401);
    expect(again.answer.body).toMatch(/wrong, used or expired.*agentd dashboard/);
    expect(again.answer.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong, truncated, missing or doubled token, and a HEAD does not spend a good one', async () => {
    const url = await bed.loginUrl();
    const { origin, searchParams } = new URL(url);
    const token = searchParams.get('token')!;
    const flipped = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const path of [`/login?token=${flipped}`, `/login?token=${token.slice(0, -1)}`, `/login?token=${token}x`, '/login', '/login?token=', `/login?tok=${token}`]) {
      const answer = await rawGet(origin, path);
      expect(answer.status, path).toBe(401);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect((await rawGet(origin, `/login?token=${token}`, {}, 'HEAD')).status).toBe(405);
    expect((await rawGet(origin, `/login?token=${token}`, {}, 'POST')).status).toBe(405);
    expect((await logIn(url)).answer.status).toBe(303);
  });

  it('refuses a token after 10 minutes (the clock moved, not waited for) and keeps each token apart', async () => {
    const late = await bed.loginUrl();
    const fresh = await bed.loginUrl();
    bed.advance(LOGIN_TOKEN_TTL_MS - 1000);
    const early = await bed.loginUrl();
    bed.advance(2000);
    expect((await logIn(late)).answer.status).toBe(401);
    expect((await logIn(fresh)).answer.status).toBe(401);
    expect((await logIn(early)).answer.status).toBe(303);
  });

  it('ends a browser session after its lifetime', async () => {
    const url = await bed.loginUrl();
    const { cookie } = await logIn(url);
    const origin = new URL(url).origin;
    bed.advance(SESSION_TTL_MS - 1000);
    expect((await rawGet(origin, '/', { Cookie: cookie })).status).toBe(200);
    bed.advance(2000);
    expect((await rawGet(origin, '/', { Cookie: cookie })).status).toBe(401);
  });

  it('answers only GET and HEAD', async () => {
    const url = await bed.loginUrl();
    const { cookie } = await logIn(url);
    const origin = new URL(url).origin;
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']) {
      const answer = await rawGet(origin, '/', { Cookie: cookie }, method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expectSecurityHeaders(answer);
    }
  });

  it('never writes a token or a cookie to the log', async () => {
    const url = await bed.loginUrl();
    const token = new URL(url).searchParams.get('token')!;
    const { cookie } = await logIn(url);
    await logIn(url);
    await rawGet(new URL(url).origin, '/', { Cookie: cookie, Host: 'attacker.example' });
    const log = bed.daemon.stderr();
    expect(log).toContain('a browser logged in');
    expect(log).toContain('refused');
    expect(log).not.toContain(token);
    expect(log).not.toContain(cookie.split('=')[1]);
  });
});

describe('the dashboard before the page is built', () => {
  it('answers 503 with how to build it', async () => {
    const bed = await startDashboardTestBed({}, { built: false });
    try {
      const url = await bed.loginUrl();
      const { cookie } = await logIn(url);
      const answer = await rawGet(new URL(url).origin, '/', { Cookie: cookie });
      expect(answer.status).toBe(503);
      expect(answer.body).toBe('the page is not built: run npm run build\n');
    } finally {
      await bed.close();
    }
  });
});
