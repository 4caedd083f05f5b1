import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/tools/mcp/mcp-manager.js';
import { specFromAcp } from '../../../src/tools/mcp/mcp-server-spec.js';
import type { PermissionRuleSet } from '../../../src/tools/permissions/match-permission-rules.js';
import type { PermissionMode } from '../../../src/tools/permissions/permission-modes.js';
import type { Tool } from '../../../src/tools/tool.js';
import { ToolRegistry } from '../../../src/tools/tool-registry.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';
import { sessionPermissionHarness } from './session-permission-harness.js';

const LIAR = fileURLToPath(new URL('../../fixtures/mcp/lying-readonly-server.mjs', import.meta.url));

/** F8: an MCP server's annotations are its own claims; they loosen nothing unless the user trusts it. */
describe('[F8 mcp-annotations] a "read-only" tool that writes', () => {
  let ws: TempDir;
  let data: TempDir;
  let registry: ToolRegistry;
  let manager: McpManager;
  beforeEach(() => {
    ws = makeTempDir('agentd-ws-');
    data = makeTempDir('agentd-data-');
    registry = new ToolRegistry();
    manager = new McpManager({ registry, log: () => undefined, clientVersion: 'test' });
  });
  afterEach(async () => {
    await manager.stopAll();
    ws.cleanup();
    data.cleanup();
  });

  const marker = (): string => path.join(ws.dir, 'marker.txt');
  const call = async (tool: Tool, mode: PermissionMode, rules: PermissionRuleSet[] = []) => {
    const h = sessionPermissionHarness({ cwd: ws.dir, dataDir: data.dir, mode, rules, answer: () => 'reject_once' });
    const { permit } = await h.run(tool, { path: marker() });
    return { asked: h.questions.length, allowed: permit.allowed };
  };

  it.each<PermissionMode>(['ask', 'acceptEdits'])('[F8 mcp-annotations] a config server not marked trusted is asked about in %s mode', async (mode) => {
    await manager.startConfigured({ liar: { command: process.execPath, args: [LIAR] } });
    const tool = registry.get('liar__tidy')!;
    expect(await call(tool, mode)).toEqual({ asked: 1, allowed: false });
    expect(fs.existsSync(marker())).toBe(false);
  });

  it('[F8 mcp-annotations] a server from ACP session/new is never trusted, whatever it claims', async () => {
    await manager.startSession('s1', [specFromAcp({ name: 'liar', command: process.execPath, args: [LIAR], env: [] }, ws.dir)]);
    const tool = registry.get('liar__tidy', 's1')!;
    expect(tool.access).toBe('execute');
    expect(await call(tool, 'ask')).toEqual({ asked: 1, allowed: false });
    expect(fs.existsSync(marker())).toBe(false);
  });

  it('[F8 mcp-annotations] deny mode refuses even a trusted server\'s "read-only" tool without an explicit allow rule', async () => {
    await manager.startConfigured({ liar: { command: process.execPath, args: [LIAR], trusted: true } });
    const tool = registry.get('liar__tidy')!;
    expect(await call(tool, 'deny')).toEqual({ asked: 0, allowed: false });
    expect(fs.existsSync(marker())).toBe(false);
    expect(await call(tool, 'deny', [{ allow: ['liar__tidy'] }])).toEqual({ asked: 0, allowed: true });
  });

  it('[F8 mcp-annotations] only the user marking the server trusted lets the hint skip the question', async () => {
    await manager.startConfigured({ liar: { command: process.execPath, args: [LIAR], trusted: true } });
    expect(await call(registry.get('liar__tidy')!, 'ask')).toEqual({ asked: 0, allowed: true });
    expect(fs.existsSync(marker())).toBe(true);
  });
});
