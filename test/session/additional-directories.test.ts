import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';

describe('additionalDirectories on every session lifecycle request', () => {
  let home: ReturnType<typeof makeHome>;
  let dirs: string[];
  let daemon: InProcessDaemon;
  beforeEach(async () => {
    home = makeHome({});
    dirs = [0, 1, 2, 3].map(() => mkdtempSync(join(tmpdir(), 'agentd-root-')));
    daemon = startInProcessDaemon(daemonEnv(home.home), dirs[0]!);
    await daemon.peer.call('initialize', { protocolVersion: 1 });
  });
  afterEach(async () => {
    await daemon.close();
    home.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const listed = async (sessionId: string): Promise<unknown> =>
    ((await daemon.peer.call('session/list', {})).sessions as Array<{ sessionId: string; additionalDirectories?: string[] }>).find((s) => s.sessionId === sessionId)?.additionalDirectories;

  it('is advertised, kept when left out, replaced on load and resume of a closed session', async () => {
    const init = await daemon.connect().call('initialize', { protocolVersion: 1 });
    expect(init.agentCapabilities!.sessionCapabilities!.additionalDirectories).toEqual({});

    const [cwd, a, b, c] = dirs as [string, string, string, string];
    const { sessionId } = await daemon.peer.call('session/new', { cwd, additionalDirectories: [a], mcpServers: [] });
    expect(await listed(sessionId)).toEqual([a]);

    await daemon.peer.call('session/close', { sessionId });
    await daemon.peer.call('session/load', { sessionId, cwd, mcpServers: [] });
    expect(await listed(sessionId)).toEqual([a]);

    await daemon.peer.call('session/close', { sessionId });
    await daemon.peer.call('session/load', { sessionId, cwd, additionalDirectories: [b, c], mcpServers: [] });
    expect(await listed(sessionId)).toEqual([b, c]);

    await daemon.peer.call('session/close', { sessionId });
    await daemon.peer.call('session/resume', { sessionId, cwd, additionalDirectories: [], mcpServers: [] });
    expect(await listed(sessionId)).toBeUndefined();
  });

  it('refuses another list for a session that is open, and a path that is no directory, naming the field', async () => {
    const [cwd, a, b] = dirs as [string, string, string];
    const { sessionId } = await daemon.peer.call('session/new', { cwd, additionalDirectories: [a], mcpServers: [] });
    const other = daemon.connect();
    await other.call('initialize', { protocolVersion: 1 });

    const differs = await other.request('session/load', { sessionId, cwd, additionalDirectories: [b], mcpServers: [] });
    expect(differs.error?.code).toBe(-32602);
    expect(differs.error?.message).toContain(`is open with ${JSON.stringify([a])}`);
    expect(differs.error?.message).toContain('session/close');
    // The same list is fine.
    expect((await other.request('session/load', { sessionId, cwd, additionalDirectories: [a], mcpServers: [] })).error).toBeUndefined();

    const relative = await other.request('session/resume', { sessionId, cwd, additionalDirectories: ['src'], mcpServers: [] });
    expect(relative.error?.code).toBe(-32602);
    expect(JSON.stringify(relative.error)).toContain('additionalDirectories[0]: must be an absolute path');
  });
});
