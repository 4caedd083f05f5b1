import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDaemonSettings } from '../../src/daemon/load-daemon-settings.js';
import { buildDaemon } from '../../src/daemon/start-daemon.js';
import { lockDataDir } from '../../src/store/data-dir-lock.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** `cluster.roots` on the SQLite default: one daemon, which serves its roots and nothing else. */
describe('one daemon on SQLite with cluster.roots', () => {
  let replay: ReplayServer;
  let dir: string;
  let home: ReturnType<typeof makeHome> | undefined;
  const daemons: InProcessDaemon[] = [];

  beforeEach(async () => {
    replay = await startReplayServer();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-roots-')));
    for (const name of ['served', 'other']) mkdirSync(join(dir, name));
  });
  afterEach(async () => {
    await Promise.all(daemons.splice(0).map((daemon) => daemon.close()));
    await replay.close();
    home?.cleanup();
    home = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The config of one home (one data directory), written again at each call. */
  function configure(cluster: Record<string, unknown>): void {
    home ??= makeHome();
    mkdirSync(join(home.home, 'config'), { recursive: true });
    const config = { model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, cluster };
    writeFileSync(join(home.home, 'config', 'config.json'), JSON.stringify(config));
  }

  async function start(): Promise<InProcessDaemon> {
    const daemon = startInProcessDaemon(daemonEnv(home!.home), dir);
    daemons.push(daemon);
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    return daemon;
  }

  it('does not start when a root is missing, naming it, and leaves the data directory free', async () => {
    configure({ roots: [join(dir, 'served'), join(dir, 'srved')] });
    const settings = loadDaemonSettings({ cwd: dir, env: daemonEnv(home!.home), version: 'test', write: () => undefined });
    await expect(buildDaemon(settings)).rejects.toThrow(
      `cluster.roots: ${join(dir, 'srved')} does not exist on this machine; create it, correct the entry in config.json, or remove it`,
    );
    lockDataDir(settings.paths.dataDir).release();
  });

  it('refuses a session outside its roots, and answers no_daemon_for_folder for one made before the roots were set; such a session still loads', async () => {
    configure({});
    const before = await start();
    const cwd = join(dir, 'other');
    const { sessionId } = await before.peer.call('session/new', { cwd, mcpServers: [] });
    await before.close();

    configure({ roots: [join(dir, 'served')] });
    const daemon = await start();
    const refused = await daemon.peer.request('session/new', { cwd, mcpServers: [] });
    expect(refused.error?.data).toEqual({ kind: 'folder_not_served', folder: cwd, roots: [join(dir, 'served')], servingDaemons: [] });
    expect(refused.error?.message).toBe(
      `session/new: this daemon does not serve ${cwd} (its cluster.roots are ${join(dir, 'served')}); add the folder to this daemon's cluster.roots in config.json and restart it`,
    );

    await daemon.peer.call('session/load', { sessionId, cwd, mcpServers: [] });
    const prompted = await daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    expect(prompted.error?.data).toEqual({ kind: 'no_daemon_for_folder', folder: cwd, roots: [join(dir, 'served')] });
    expect(prompted.error?.message).toBe(
      `session/prompt: this daemon does not serve ${cwd}, the folder of session ${sessionId} (this daemon's cluster.roots are ${join(dir, 'served')}), ` +
        'and no other daemon shares its store; add the folder to its cluster.roots in config.json and restart it',
    );
    const queued = await daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'later' }], _meta: { agentd: { queue: true } } });
    expect(queued.error?.data).toEqual({ kind: 'no_daemon_for_folder', folder: cwd, roots: [join(dir, 'served')] });
    expect(replay.requests).toHaveLength(0);

    const { sessionId: served } = await daemon.peer.call('session/new', { cwd: join(dir, 'served'), mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Served.']) });
    expect(await daemon.peer.call('session/prompt', { sessionId: served, prompt: [{ type: 'text', text: 'hello' }] })).toMatchObject({ stopReason: 'end_turn' });
    const { daemons: registered } = await daemon.peer.call('daemon/cluster', {});
    expect(registered.map((entry) => entry.roots)).toEqual([[join(dir, 'served')]]);
  });
});
