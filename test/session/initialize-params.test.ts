import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';

/** What editors' JSON encoders naturally send for an empty object, and what a missing field is called. */
describe('initialize as editors write it', () => {
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;
  beforeEach(() => {
    home = makeHome({});
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = startInProcessDaemon(daemonEnv(home.home), workspace);
  });
  afterEach(async () => {
    await daemon.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it.each([
    ['absent', undefined],
    ['null (Emacs nil)', null],
    ['[] (Lua {})', []],
    ['{}', {}],
    ['with empty parts', { fs: [], terminal: false, session: null, auth: [], elicitation: [] }],
  ])('takes clientCapabilities %s as the defaults', async (_label, clientCapabilities) => {
    const peer = daemon.connect();
    const params = clientCapabilities === undefined ? { protocolVersion: 1 } : { protocolVersion: 1, clientCapabilities };
    const answer = await peer.requestUnchecked('initialize', params);
    expect(answer.error).toBeUndefined();
    expect(answer.result.protocolVersion).toBe(1);
    // The connection is usable after it.
    expect((await peer.call('session/list', {})).sessions).toEqual([]);
  });

  it('still refuses capabilities of the wrong kind, naming the field', async () => {
    const answer = await daemon.peer.requestUnchecked('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: 'yes' } } });
    expect(answer.error?.code).toBe(-32602);
    expect(JSON.stringify(answer.error)).toContain('clientCapabilities.fs.readTextFile');
  });

  it('says a missing field "is required", with the type expected, not "received undefined"', async () => {
    const answer = await daemon.peer.requestUnchecked('initialize', {});
    expect(answer.error?.code).toBe(-32602);
    const text = JSON.stringify(answer.error);
    expect(text).toContain('protocolVersion: is required (expected number)');
    expect(text).not.toContain('received undefined');
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const session = await daemon.peer.requestUnchecked('session/new', { mcpServers: [] });
    expect(JSON.stringify(session.error)).toContain('cwd: is required (expected string)');
  });
});
