import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager, type McpServerStatus } from '../../../src/tools/mcp/mcp-manager.js';
import { specFromAcp, specFromConfig } from '../../../src/tools/mcp/mcp-server-spec.js';
import { processAlive } from '../../../src/tools/shell/kill-process-group.js';
import { ToolRegistry } from '../../../src/tools/tool-registry.js';
import { until } from '../../support/daemon-process.js';
import { makeTempDir, type TempDir } from '../tool-test-context.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/mcp/crashy-server.mjs', import.meta.url));

/** The reconcilers a config reload calls: they change only what changed, and tell every state change. */
describe('McpManager reconcilers', () => {
  let temp: TempDir;
  let registry: ToolRegistry;
  let manager: McpManager;
  let changes: McpServerStatus[];

  beforeEach(() => {
    temp = makeTempDir();
    registry = new ToolRegistry();
    manager = new McpManager({ registry, log: () => undefined, clientVersion: 'test' });
    changes = [];
    manager.onStateChange((status) => changes.push(status));
  });

  afterEach(async () => {
    await manager.stopAll();
    temp.cleanup();
  });

  const server = (name: string, extra: string[] = []) => ({ command: process.execPath, args: [FIXTURE, ...extra], env: { MCP_START_LOG: path.join(temp.dir, `${name}.log`) } });
  const pids = (name: string): number[] => {
    const file = path.join(temp.dir, `${name}.log`);
    return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(Number) : [];
  };
  const states = () => manager.status().map((s) => `${s.name}:${s.state}`).sort();

  it('setConfigured starts new servers, keeps unchanged ones, restarts changed ones and stops removed ones', async () => {
    await manager.setConfigured({ a: server('a') });
    expect(states()).toEqual(['a:running']);
    expect(changes.map((c) => `${c.name}:${c.state}:${c.tools.length}`)).toEqual(['a:starting:0', 'a:running:5']);

    // Adding b leaves a alone: the same process.
    await manager.setConfigured({ a: server('a'), b: server('b') });
    expect(states()).toEqual(['a:running', 'b:running']);
    expect(pids('a')).toHaveLength(1);
    expect(registry.get('b__echo')).toBeDefined();

    // a removed, b changed (another argument): a stops, b runs again on a new process.
    changes = [];
    await manager.setConfigured({ b: server('b', ['--changed']) });
    expect(states()).toEqual(['b:running']);
    expect(registry.get('a__echo')).toBeUndefined();
    expect(registry.get('b__echo')).toBeDefined();
    expect(pids('b')).toHaveLength(2);
    await until(() => !processAlive(pids('a')[0]!) && !processAlive(pids('b')[0]!), 5_000, 'the removed and replaced processes to exit');
    expect(changes.map((c) => `${c.name}:${c.state}`).sort()).toEqual(['a:stopped', 'b:running', 'b:starting', 'b:stopped']);

    await manager.setConfigured(undefined);
    expect(states()).toEqual([]);
    expect(registry.list()).toEqual([]);
  });

  it('setSessionServers reconciles a project\'s servers of one session and leaves its client\'s alone', async () => {
    const client = specFromAcp({ name: 'own', command: process.execPath, args: [FIXTURE], env: [] }, temp.dir);
    await manager.startSession('s1', [client]);
    await manager.setSessionServers('s1', [specFromConfig('proj', server('proj'))]);
    expect(manager.status('s1').map((s) => s.name).sort()).toEqual(['own', 'proj']);
    expect(registry.get('proj__echo', 's1')).toBeDefined();
    expect(registry.get('proj__echo', 's2')).toBeUndefined();

    await manager.setSessionServers('s1', []);
    expect(manager.status('s1').map((s) => `${s.name}:${s.state}`)).toEqual(['own:running']);
    expect(registry.get('proj__echo', 's1')).toBeUndefined();
    await until(() => !processAlive(pids('proj')[0]!), 5_000, 'the project server to exit');
  });

  it('starts nothing once stopped for good, even what was asked for just before', async () => {
    const starting = manager.setConfigured({ late: server('late') });
    await manager.stopAll();
    await starting;
    await manager.setConfigured({ later: server('later') });
    expect(manager.status()).toEqual([]);
    expect(pids('late')).toEqual([]);
    expect(pids('later')).toEqual([]);
  });
});
