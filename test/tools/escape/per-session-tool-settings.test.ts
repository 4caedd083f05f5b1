import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/tools/builtin/bash.js';
import { createWebFetchTool } from '../../../src/tools/builtin/web-fetch.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';
import { BUBBLEWRAP, requireProgram } from '../../support/required-program.js';

const hasBubblewrap = requireProgram(BUBBLEWRAP);

/**
 * F7: one registry of built-in tools serves every project, so a session's own settings
 * (its project's `sandbox.network`, `tools.webFetchAllowedHosts`) travel in ToolContext
 * and replace what the tool was created with, in both directions.
 */
describe('per-session tool settings', () => {
  let workspace: TempDir;
  beforeEach(() => (workspace = makeTempDir()));
  afterEach(() => workspace.cleanup());

  describe.skipIf(!hasBubblewrap)('bash network', () => {
    let server: net.Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = net.createServer((socket) => {
        connections += 1;
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => new Promise((resolve) => server.close(resolve)));
    const connect = (): { command: string } => ({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected` });

    it("[F7 per-session-config] a session without sandbox.network has no network, though the daemon's bash was created with it", async () => {
      const before = connections;
      const result = await createBashTool({ allowNetwork: true }).execute(connect(), makeContext(workspace.dir, { sandbox: { mode: 'bubblewrap' }, settings: { bashNetwork: false } }));
      expect(textOf(result)).not.toContain('connected');
      expect(connections).toBe(before);
    });

    it("[F7 per-session-config] a trusted project's sandbox.network reaches only its own sessions (control)", async () => {
      const tool = createBashTool();
      const open = await tool.execute(connect(), makeContext(workspace.dir, { sandbox: { mode: 'bubblewrap' }, settings: { bashNetwork: true } }));
      expect(textOf(open)).toContain('connected');
      const closed = await tool.execute(connect(), makeContext(workspace.dir, { sandbox: { mode: 'bubblewrap' }, settings: {} }));
      expect(textOf(closed)).not.toContain('connected');
    });
  });

  describe('web_fetch hosts', () => {
    let server: http.Server;
    let port = 0;
    let hits = 0;
    beforeAll(async () => {
      server = http.createServer((_req, res) => {
        hits += 1;
        res.end('served');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => new Promise((resolve) => server.close(resolve)));

    it("[F7 per-session-config] a session's webFetchAllowedHosts narrows a web_fetch created without a list", async () => {
      const tool = createWebFetchTool({ isAddressAllowed: (ip) => ip === '127.0.0.1' });
      const before = hits;
      const refused = await tool.execute({ url: `http://127.0.0.1:${port}/` }, makeContext(workspace.dir, { settings: { webFetchAllowedHosts: ['docs.example.com'] } }));
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('allowed hosts: docs.example.com');
      expect(hits).toBe(before);
      // Control: without a list in the session's settings the same fetch is served.
      const served = await tool.execute({ url: `http://127.0.0.1:${port}/` }, makeContext(workspace.dir, { settings: {} }));
      expect(textOf(served)).toContain('served');
    });
  });
});
