import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonEnv, makeHome } from './daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from './in-process-daemon.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';
import type { RpcPeer } from './rpc-peer.js';

/** Two initialized clients of one in-process daemon, and a session the editor opened. */
export interface TwoClients {
  replay: ReplayServer;
  daemon: InProcessDaemon;
  /** The client that opened the session. */
  editor: RpcPeer;
  /** A second client of the same daemon, not yet following the session. */
  watcher: RpcPeer;
  sessionId: string;
  workspace: string;
}

/**
 * A daemon whose model `local/e2e-model` is the loopback replay server, with two clients
 * (as two editors on its socket) and a session in a fresh workspace. `config(replayUrl)`
 * adds to the user config. Everything started is pushed onto `cleanups`, to be run in
 * reverse after the test.
 */
export async function startTwoClients(
  cleanups: Array<() => Promise<void> | void>,
  config: (replayUrl: string) => Record<string, unknown> = () => ({}),
): Promise<TwoClients> {
  const replay = await startReplayServer();
  cleanups.push(() => replay.close());
  const extra = config(replay.url);
  const providers = { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` }, ...(extra.providers as object | undefined) };
  const home = makeHome({ model: 'local/e2e-model', ...extra, providers });
  cleanups.push(() => home.cleanup());
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
  const daemon = startInProcessDaemon(daemonEnv(home.home), workspace);
  cleanups.push(() => daemon.close());
  const editor = daemon.peer;
  const watcher = daemon.connect();
  await editor.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  await watcher.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await editor.call('session/new', { cwd: workspace, mcpServers: [] });
  return { replay, daemon, editor, watcher, sessionId, workspace };
}
