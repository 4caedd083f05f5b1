import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebFetchTool } from '../../../src/tools/builtin/web-fetch.js';
import { makeContext, textOf } from '../tool-test-context.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('web_fetch (loopback allowed for the test)', () => {
  let server: http.Server;
  let base = '';
  const hostsSeen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hostsSeen.push(req.headers.host ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/page':
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end('<html><head><title>T</title><style>p{}</style></head><body><h1>Hello</h1><script>alert(1)</script><p>A <a href="/x">link</a> and <b>bold</b>.</p><ul><li>one</li></ul></body></html>');
          return;
        case '/json':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"a":1}');
          return;
        case '/hop':
          res.writeHead(301, { location: '/page' });
          res.end();
          return;
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          res.end();
          return;
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('z'.repeat(300_000));
          return;
        case '/png':
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(PNG);
          return;
        case '/zip':
          res.writeHead(200, { 'content-type': 'application/zip' });
          res.end(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]));
          return;
        case '/hang':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('partial');
          return; // never ends
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('no such page');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const loopbackOnly = (ip: string): boolean => ip === '127.0.0.1';
  const tool = createWebFetchTool({ isAddressAllowed: loopbackOnly });
  const ctx = makeContext('/');

  it('converts HTML to Markdown without scripts or styles', async () => {
    const result = await tool.execute({ url: `${base}/page` }, ctx);
    expect(result.isError).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain(`${base}/page (HTTP 200, text/html)`);
    expect(text).toContain('# Hello');
    expect(text).toContain('A [link](/x) and **bold**.');
    expect(text).toContain('-   one');
    expect(text).not.toContain('alert');
    expect(text).not.toContain('p{}');
  });

  it('returns JSON as text and follows redirects between allowed hosts', async () => {
    expect(textOf(await tool.execute({ url: `${base}/json` }, ctx))).toContain('{"a":1}');
    const redirected = textOf(await tool.execute({ url: `${base}/hop` }, ctx));
    expect(redirected).toContain(`${base}/page (HTTP 200`);
    expect(redirected).toContain('# Hello');
  });

  it('stops after 5 redirects', async () => {
    const result = await tool.execute({ url: `${base}/loop` }, ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Too many redirects (more than 5)');
  });

  it('cuts the body at maxBytes and the output at 100k characters', async () => {
    const small = textOf(await tool.execute({ url: `${base}/big`, maxBytes: 1000 }, ctx));
    expect(small).toContain('z'.repeat(1000));
    expect(small).not.toContain('z'.repeat(1001));
    expect(small).toContain('The response was cut at 1000 bytes');
    const large = await tool.execute({ url: `${base}/big` }, ctx);
    expect(textOf(large)).toContain('Output cut at 100000 of 300000 characters');
    expect(large.details?.truncated).toBe(true);
  });

  it('returns images as image blocks and refuses other binary content', async () => {
    const image = await tool.execute({ url: `${base}/png` }, ctx);
    expect(image.content[1]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
    const zip = await tool.execute({ url: `${base}/zip` }, ctx);
    expect(zip.isError).toBe(true);
    expect(textOf(zip)).toContain('application/zip');
  });

  it('marks HTTP errors as errors', async () => {
    const result = await tool.execute({ url: `${base}/missing` }, ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('HTTP 404');
    expect(textOf(result)).toContain('no such page');
  });

  it('times out', async () => {
    const quick = createWebFetchTool({ isAddressAllowed: loopbackOnly, timeoutMs: 300 });
    const result = await quick.execute({ url: `${base}/hang` }, ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('timed out after 0.3 s');
  });

  it('connects to the address it checked, whatever the hostname (no second DNS answer)', async () => {
    const port = new URL(base).port;
    const pinned = createWebFetchTool({
      isAddressAllowed: loopbackOnly,
      resolveHost: (host) => Promise.resolve(host === 'pinned.example' ? [{ address: '127.0.0.1', family: 4 }] : []),
    });
    const result = await pinned.execute({ url: `http://pinned.example:${port}/json` }, ctx);
    expect(textOf(result)).toContain('{"a":1}');
    expect(hostsSeen).toContain(`pinned.example:${port}`);
  });

  it('enforces the host allowlist, and only http and https', async () => {
    const listed = createWebFetchTool({ isAddressAllowed: loopbackOnly, allowedHosts: ['docs.example.com'] });
    const blocked = await listed.execute({ url: `${base}/page` }, ctx);
    expect(textOf(blocked)).toContain('Fetching 127.0.0.1 is not allowed; allowed hosts: docs.example.com');
    expect(textOf(await tool.execute({ url: 'file:///etc/passwd' }, ctx))).toContain('Only http and https');
    expect(textOf(await tool.execute({ url: 'not a url' }, ctx))).toContain('Not a valid URL');
  });
});
