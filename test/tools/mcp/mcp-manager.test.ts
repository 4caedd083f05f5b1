import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpManager } from '../../../src/tools/mcp/mcp-manager.js';
import { specFromAcp } from '../../../src/tools/mcp/mcp-server-spec.js';
import { ToolRegistry } from '../../../src/tools/tool-registry.js';
import { until } from '../../support/daemon-process.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/mcp/crashy-server.mjs', import.meta.url));
const CRASHY_TOOLS = ['crashy__echo', 'crashy__picture', 'crashy__fail', 'crashy__crash', 'crashy__add_late'];

describe('McpManager', () => {
  let temp: TempDir;
  let registry: ToolRegistry;
  let logs: string[];
  let manager: McpManager;
  let startLog: string;

  beforeEach(() => {
    temp = makeTempDir();
    registry = new ToolRegistry();
    logs = [];
    manager = new McpManager({ registry, log: (line) => logs.push(line), clientVersion: 'test', backoff: { initialMs: 100, maxMs: 400 } });
    startLog = path.join(temp.dir, 'starts.log');
  });

  afterEach(async () => {
    await manager.stopAll();
    temp.cleanup();
  });

  const starts = (): string[] => (existsSync(startLog) ? readFileSync(startLog, 'utf8').trim().split('\n') : []);
  const run = (name: string, args: Record<string, unknown> = {}, sessionId?: string) =>
    registry.get(name, sessionId)!.execute(args, makeContext(temp.dir));

  it('believes readOnlyHint only from a server the user config marks trusted, and flags it as a hint', async () => {
    await manager.startConfigured({ trusty: { command: process.execPath, args: [FIXTURE], env: { MCP_START_LOG: startLog }, trusted: true } });
    expect(registry.entry('trusty__echo')).toMatchObject({ origin: 'mcp', tool: { access: 'read', accessFromHint: true } });
    expect(registry.entry('trusty__crash')?.tool.access).toBe('execute');
  });

  it('offers a config stdio server\'s tools, passes results through, refreshes on list_changed, and restarts after a crash', async () => {
    await manager.startConfigured({ crashy: { command: process.execPath, args: [FIXTURE], env: { MCP_START_LOG: startLog } } });
    expect(manager.status()).toEqual([{ name: 'crashy', state: 'running', tools: CRASHY_TOOLS, startupTimeoutMs: 10_000 }]);
    // crashy marks echo readOnlyHint, but it is not trusted: the hint loosens nothing.
    expect(registry.entry('crashy__echo')).toMatchObject({ origin: 'mcp', tool: { kind: 'other', access: 'execute' } });
    expect(registry.entry('crashy__crash')).toMatchObject({ origin: 'mcp', tool: { kind: 'other', access: 'execute' } });
    expect(registry.specs().find((s) => s.name === 'crashy__echo')!.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(manager.serverOf(registry.get('crashy__echo')!)).toBe('crashy');
    // The server's stderr went to the daemon log, prefixed with its name.
    await until(() => logs.includes(`mcp crashy: crashy-server ${starts()[0]} starting`), 5_000, 'the server\'s stderr in the log');

    expect(await run('crashy__echo', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'echo: hi' }] });
    expect(await run('crashy__picture')).toEqual({
      content: [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', uri: 'file:///notes.md', text: '# Notes', mimeType: 'text/markdown' },
      ],
    });
    expect(await run('crashy__fail')).toEqual({ content: [{ type: 'text', text: 'the thing failed' }], isError: true });

    expect(textOf(await run('crashy__add_late'))).toBe('added');
    await until(() => registry.get('crashy__late') !== undefined, 5_000, 'the list_changed refresh');
    expect(textOf(await run('crashy__late'))).toBe('late tool ran');

    expect(await run('crashy__crash')).toEqual({
      content: [{ type: 'text', text: 'MCP server "crashy" crashed while running "crash"; it is restarting, try again shortly.' }],
      isError: true,
    });
    expect(await run('crashy__echo', { text: 'too soon' })).toEqual({
      content: [{ type: 'text', text: 'MCP server "crashy" is restarting after a crash; try again shortly.' }],
      isError: true,
    });
    expect(logs).toContain('MCP server crashy exited unexpectedly; restarting in 100 ms');
    await until(() => manager.status()[0]?.state === 'running', 5_000, 'the restart');
    expect(await run('crashy__echo', { text: 'again' })).toEqual({ content: [{ type: 'text', text: 'echo: again' }] });
    expect(starts()).toHaveLength(2);
    // The new process has the tools it starts with; "late" was only in the old one.
    expect(registry.get('crashy__late')).toBeUndefined();

    await manager.stopAll();
    expect(registry.list()).toEqual([]);
    const pid = Number(starts()[1]);
    await until(() => !isAlive(pid), 5_000, 'the server process to exit');
  });

  it('backs off while a crashed server cannot be restarted, then recovers', async () => {
    const refuse = path.join(temp.dir, 'refuse');
    await manager.startConfigured({ crashy: { command: process.execPath, args: [FIXTURE], env: { MCP_START_LOG: startLog, MCP_REFUSE_FILE: refuse } } });
    writeFileSync(refuse, '');
    expect(textOf(await run('crashy__crash'))).toMatch(/crashed while running "crash"/);
    await until(() => logs.some((l) => /could not be restarted .*; restarting in 400 ms$/.test(l)), 5_000, 'two failed restarts');
    expect(logs.filter((l) => /restarting in \d+ ms/.test(l)).map((l) => /in (\d+) ms/.exec(l)![1])).toEqual(['100', '200', '400']);
    expect(manager.status()[0]!.state).toBe('restarting');
    rmSync(refuse);
    await until(() => manager.status()[0]?.state === 'running', 5_000, 'the recovery');
    expect(textOf(await run('crashy__echo', { text: 'back' }))).toBe('echo: back');
  });

  it('reports a server that cannot start and offers none of its tools', async () => {
    await manager.startConfigured({ missing: { command: path.join(temp.dir, 'no-such-server') } });
    expect(manager.status()).toEqual([{ name: 'missing', state: 'failed', tools: [], error: expect.stringMatching(/ENOENT/), startupTimeoutMs: 10_000 }]);
    expect(logs.some((l) => l.startsWith('MCP server missing failed to start: '))).toBe(true);
    expect(registry.list()).toEqual([]);
  });

  it('scopes a session\'s servers to it, keeps an unchanged one, and stops them with the session', async () => {
    const spec = specFromAcp({ name: 'crashy', command: process.execPath, args: [FIXTURE], env: [{ name: 'MCP_START_LOG', value: startLog }] }, temp.dir);
    await manager.startSession('s1', [spec]);
    expect(registry.get('crashy__echo', 's1')).toBeDefined();
    expect(registry.get('crashy__echo')).toBeUndefined();
    expect(registry.get('crashy__echo', 's2')).toBeUndefined();
    expect(textOf(await run('crashy__echo', { text: 'session' }, 's1'))).toBe('echo: session');
    await manager.startSession('s1', [spec]);
    expect(starts()).toHaveLength(1);
    expect(manager.status()).toEqual([{ name: 'crashy', sessionId: 's1', state: 'running', tools: CRASHY_TOOLS, startupTimeoutMs: 10_000 }]);

    await manager.stopSession('s1');
    expect(registry.get('crashy__echo', 's1')).toBeUndefined();
    expect(manager.status()).toEqual([]);
    await until(() => !isAlive(Number(starts()[0])), 5_000, 'the server process to exit');
  });

  it('talks streamable HTTP with the configured headers', async () => {
    const server = await startHttpMcpServer();
    try {
      await manager.startConfigured({ remote: { url: `${server.url}/mcp`, headers: { Authorization: 'Bearer test-token' } } });
      expect(manager.status()).toEqual([{ name: 'remote', state: 'running', tools: ['remote__shout'], startupTimeoutMs: 10_000 }]);
      expect(await run('remote__shout', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'HI' }] });
      expect(server.authorization).toContain('Bearer test-token');
    } finally {
      await manager.stopAll();
      await server.close();
    }
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A stateless streamable HTTP MCP server on 127.0.0.1 (one SDK server per request, as the SDK's stateless example). */
async function startHttpMcpServer(): Promise<{ url: string; authorization: string[]; close(): Promise<void> }> {
  const authorization: string[] = [];
  const httpServer = http.createServer((req, res) => {
    authorization.push(String(req.headers.authorization));
    const mcp = new McpServer({ name: 'remote', version: '1.0.0' });
    mcp.registerTool('shout', { description: 'Upper-case the text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text: text.toUpperCase() }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    void mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    authorization,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
