import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebFetchTool } from '../../../src/tools/builtin/web-fetch.js';
import type { PermissionRuleSet } from '../../../src/tools/permissions/match-permission-rules.js';
import type { PermissionMode } from '../../../src/tools/permissions/permission-modes.js';
import { makeTempDir, textOf, type TempDir } from '../tool-test-context.js';
import { sessionPermissionHarness, type Answerer } from './session-permission-harness.js';

/**
 * F17: a redirect is decided like the URL it leads to. Every name (a.example, evil.example,
 * …) resolves to 127.0.0.1 for the test and loopback is allowed; each server answers by
 * the Host header, so a request that reaches "evil.example" is visible in `seen`.
 */
describe('[F17 web_fetch redirects] escape attempts', () => {
  const seen: string[] = [];
  const servers: http.Server[] = [];
  let port = 0;
  let otherPort = 0;
  const handler: http.RequestListener = (req, res) => {
    seen.push(req.headers.host ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (to !== null) {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`page of ${req.headers.host ?? ''}${url.pathname}`);
  };
  beforeAll(async () => {
    for (let i = 0; i < 2; i += 1) {
      const server = http.createServer(handler);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    port = (servers[0]!.address() as AddressInfo).port;
    otherPort = (servers[1]!.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  let ws: TempDir;
  let data: TempDir;
  beforeEach(() => {
    ws = makeTempDir('agentd-ws-');
    data = makeTempDir('agentd-data-');
    seen.length = 0;
  });
  afterEach(() => {
    ws.cleanup();
    data.cleanup();
  });

  const tool = createWebFetchTool({
    isAddressAllowed: (ip) => ip === '127.0.0.1',
    resolveHost: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
  });
  /** A URL on `host` that redirects to `to` with `status`. */
  const hop = (host: string, to: string, status = 302, p = port): string =>
    `http://${host}:${p}/r?status=${status}&to=${encodeURIComponent(to)}`;
  const page = (host: string, p = port): string => `http://${host}:${p}/secret`;
  const reachedEvil = (): boolean => seen.some((h) => h.toLowerCase().replace(/\.?:\d+$/, '') === 'evil.example');
  const allowA: PermissionRuleSet = { allow: ['web_fetch(domain:a.example)', 'web_fetch(domain:b.example)'], deny: ['web_fetch(domain:evil.example)'] };
  const harness = (answer: Answerer, mode: PermissionMode = 'ask', rules: PermissionRuleSet[] = [allowA]) =>
    sessionPermissionHarness({ cwd: ws.dir, dataDir: data.dir, mode, rules, answer });
  const never: Answerer = () => {
    throw new Error('no question was expected');
  };

  it.each([301, 302, 303, 307, 308])(
    '[F17 web_fetch redirects] a %i from an allowed host to a denied one is refused, even in bypass, and the denied host is never dialled',
    async (status) => {
      const h = harness(never, 'bypass');
      const { permit, result } = await h.run(tool, { url: hop('a.example', page('evil.example'), status) });
      expect(permit.allowed).toBe(true);
      expect(result?.isError).toBe(true);
      expect(textOf(result!)).toContain(`Did not follow the redirect from ${hop('a.example', page('evil.example'), status)} to ${page('evil.example')}`);
      expect(reachedEvil()).toBe(false);
    },
  );

  it.each([
    ['protocol-relative', `//evil.example:PORT/x`],
    ['upper case', `http://EVIL.EXAMPLE:PORT/x`],
    ['trailing dot', `http://evil.example.:PORT/x`],
    ['upper case and trailing dots', `http://Evil.Example..:PORT/x`],
    ['userinfo that looks like the allowed host', `http://a.example@evil.example:PORT/x`],
  ])('[F17 web_fetch redirects] a Location spelled %s does not slip past the deny rule', async (_name, location) => {
    const h = harness(never, 'bypass');
    const { result } = await h.run(tool, { url: hop('a.example', location.replace('PORT', String(port))) });
    expect(result?.isError).toBe(true);
    expect(textOf(result!)).toContain('web_fetch to evil.example');
    expect(reachedEvil()).toBe(false);
  });

  it.each([
    ['decimal', 'http://2130706433:PORT/x'],
    ['hex and short', 'http://0x7f.1:PORT/x'],
    ['short', 'http://127.1:PORT/x'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:PORT/x'],
    ['IPv4-mapped IPv6 in hex', 'http://[0:0:0:0:0:ffff:7f00:1]:PORT/x'],
  ])('[F17 web_fetch redirects] a Location with the denied address spelled %s is refused', async (_name, location) => {
    const h = harness(never, 'bypass', [{ allow: ['web_fetch(domain:a.example)'], deny: ['web_fetch(domain:127.0.0.1)'] }]);
    const { result } = await h.run(tool, { url: hop('a.example', location.replace('PORT', String(port))) });
    expect(textOf(result!)).toContain(`web_fetch to 127.0.0.1:${port} is refused`);
    expect(seen).toEqual([`a.example:${port}`]);
  });

  it.each(['http://EVIL.example.:PORT/x', 'HTTP://evil.EXAMPLE:PORT/x'])(
    '[F17 web_fetch redirects] the first URL spelled %s is refused by a URL-pattern deny rule written in lower case',
    async (url) => {
      const rules = [{ deny: [`web_fetch(http://evil.example:${port}/*)`] }];
      const h = harness(never, 'bypass', rules);
      const { permit } = await h.run(tool, { url: url.replace('PORT', String(port)) });
      expect(permit.allowed).toBe(false);
      expect(reachedEvil()).toBe(false);
    },
  );

  it('[F17 web_fetch redirects] the first URL with a trailing dot is refused by a domain deny rule', async () => {
    const h = harness(never, 'bypass');
    const { permit } = await h.run(tool, { url: page('evil.example.') });
    expect(permit.allowed).toBe(false);
    expect(reachedEvil()).toBe(false);
  });

  it.each([
    ['file:', 'file:///etc/passwd', 'Only http and https URLs can be fetched (got file:)'],
    ['data:', 'data:text/plain,owned', 'Only http and https URLs can be fetched (got data:)'],
  ])('[F17 web_fetch redirects] a redirect to a %s URL is refused', async (_scheme, location, message) => {
    const h = harness(never, 'bypass');
    const { result } = await h.run(tool, { url: hop('a.example', location) });
    expect(result?.isError).toBe(true);
    expect(textOf(result!)).toContain(message);
  });

  it('[F17 web_fetch redirects] a chain allowed → allowed → denied stops before the denied host', async () => {
    const h = harness(never, 'bypass');
    const { result } = await h.run(tool, { url: hop('a.example', hop('b.example', page('evil.example'))) });
    expect(textOf(result!)).toContain('web_fetch to evil.example');
    expect(seen.map((s) => s.replace(/:\d+$/, ''))).toEqual(['a.example', 'b.example']);
  });

  it('[F17 web_fetch redirects] a redirect to the same host on another port is asked about, naming both, and a refusal stops it', async () => {
    const h = harness((_q, i) => (i === 0 ? 'allow_once' : 'reject_once'), 'ask', [{}]);
    const { result } = await h.run(tool, { url: hop('c.example', page('c.example', otherPort)) });
    expect(h.questions).toHaveLength(2);
    expect(h.questions[1]?.title).toBe(`c.example:${port} redirects to c.example:${otherPort} (HTTP 302): fetch ${page('c.example', otherPort)}`);
    expect(result?.isError).toBe(true);
    expect(seen).toEqual([`c.example:${port}`]);
  });

  it('[F17 web_fetch redirects] a redirect to an unruled host asks, naming the redirect, and follows only on yes', async () => {
    const rules = [{ allow: ['web_fetch(domain:a.example)'] }];
    const no = harness(() => 'reject_once', 'ask', rules);
    const refused = await no.run(tool, { url: hop('a.example', page('d.example')) });
    expect(no.questions).toHaveLength(1);
    expect(no.questions[0]?.title).toContain(`a.example:${port} redirects to d.example:${port} (HTTP 302)`);
    expect(no.questions[0]?.always?.reject).toBe('Always reject web_fetch to the host d.example in this project');
    expect(refused.result?.isError).toBe(true);
    const yes = harness(() => 'allow_once', 'ask', rules);
    const followed = await yes.run(tool, { url: hop('a.example', page('d.example')) });
    expect(textOf(followed.result!)).toContain(`page of d.example:${port}/secret`);
  });

  it('[F17 web_fetch redirects] a remembered "always reject" for a host refuses a later redirect to it without asking', async () => {
    const h = harness((_q, i) => (i === 0 ? 'reject_always' : 'allow_once'), 'ask', [{ allow: ['web_fetch(domain:a.example)'] }]);
    const first = await h.run(tool, { url: page('EVIL.example.') });
    expect(first.permit.allowed).toBe(false);
    const { result } = await h.run(tool, { url: hop('a.example', page('evil.example')) });
    expect(h.questions).toHaveLength(1);
    expect(textOf(result!)).toContain('web_fetch to evil.example');
    expect(reachedEvil()).toBe(false);
  });

  it('[F17 web_fetch redirects] a remembered "always allow" for a host lets a redirect to it through without asking', async () => {
    const h = harness((_q, i) => (i === 0 ? 'allow_always' : 'reject_once'), 'ask', [{ allow: ['web_fetch(domain:a.example)'] }]);
    await h.run(tool, { url: page('d.example') });
    const { result } = await h.run(tool, { url: hop('a.example', page('d.example')) });
    expect(h.questions).toHaveLength(1);
    expect(textOf(result!)).toContain(`page of d.example:${port}/secret`);
  });

  it('[F17 web_fetch redirects] "always reject" answered to a redirect question is remembered: the next redirect to that host is refused unasked', async () => {
    const h = harness((_q, i) => (i === 0 ? 'reject_always' : 'allow_once'), 'ask', [{ allow: ['web_fetch(domain:a.example)'] }]);
    await h.run(tool, { url: hop('a.example', page('d.example')) });
    const { result } = await h.run(tool, { url: hop('a.example', page('d.example')) });
    expect(h.questions).toHaveLength(1);
    expect(result?.isError).toBe(true);
    expect(seen.filter((host) => host.startsWith('d.example'))).toHaveLength(0);
  });

  it('[F17 web_fetch redirects] "always allow" answered to a redirect question is remembered: the next redirect to that host goes through unasked', async () => {
    const h = harness((_q, i) => (i === 0 ? 'allow_always' : 'reject_once'), 'ask', [{ allow: ['web_fetch(domain:a.example)'] }]);
    await h.run(tool, { url: hop('a.example', page('d.example')) });
    const { result } = await h.run(tool, { url: hop('a.example', page('d.example')) });
    expect(h.questions).toHaveLength(1);
    expect(textOf(result!)).toContain(`page of d.example:${port}/secret`);
  });

  it('[F17 web_fetch redirects] a relative Location on the same host is followed without a new question', async () => {
    const h = harness((_q, i) => (i === 0 ? 'allow_once' : 'reject_once'), 'ask', [{}]);
    const { result } = await h.run(tool, { url: hop('c.example', '/secret') });
    expect(h.questions).toHaveLength(1);
    expect(textOf(result!)).toContain(`page of c.example:${port}/secret`);
  });

  it('[F17 web_fetch redirects] redirects bouncing between allowed hosts stop after the cap', async () => {
    let url = page('a.example');
    for (let i = 0; i < 7; i += 1) url = hop(i % 2 === 0 ? 'b.example' : 'a.example', url);
    const h = harness(never, 'bypass');
    const { result } = await h.run(tool, { url });
    expect(textOf(result!)).toContain('Too many redirects (more than 5)');
    expect(seen).toHaveLength(6);
  });
});
