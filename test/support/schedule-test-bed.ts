import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonEnv, makeHome, until } from './daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from './in-process-daemon.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';
import type { RpcPeer } from './rpc-peer.js';

/** A daemon (real store file, loopback vendor) with a workspace, for the scheduler's tests. */
export interface ScheduleTestBed {
  replay: ReplayServer;
  home: string;
  env: NodeJS.ProcessEnv;
  workspace: string;
  daemon: InProcessDaemon;
  /** Starts the daemon again on the same home (after `daemon.close()`), as a restart would. */
  restart(): Promise<InProcessDaemon>;
  cleanup(): Promise<void>;
}

/** `config` gives config.json's extra keys for the workspace (schedules need its path). */
export async function startScheduleTestBed(config: (workspace: string) => Record<string, unknown> = () => ({})): Promise<ScheduleTestBed> {
  const replay = await startReplayServer();
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, ...config(workspace) });
  const env = daemonEnv(home.home);
  const open = async (): Promise<InProcessDaemon> => {
    const daemon = startInProcessDaemon(env, process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
    return daemon;
  };
  const bed: ScheduleTestBed = {
    replay,
    home: home.home,
    env,
    workspace,
    daemon: await open(),
    async restart() {
      bed.daemon = await open();
      return bed.daemon;
    },
    async cleanup() {
      await bed.daemon.close();
      await replay.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
  return bed;
}

/** The `schedule_run_finished` event of a run, once it has come. */
export async function runFinished(peer: RpcPeer, runId: string): Promise<any> {
  const message = await peer.waitFor(
    (m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'schedule_run_finished' && m.params.event.runId === runId,
    15_000,
    `schedule_run_finished of ${runId}`,
  );
  return message.params.event;
}

/** Polls `schedules/history` until a row matches. */
export async function historyRow(peer: RpcPeer, id: string, test: (row: any) => boolean): Promise<any> {
  let found: any;
  await until(async () => {
    const { runs } = await peer.call('schedules/history', { id, limit: 200 });
    found = runs.find(test);
    return found !== undefined;
  }, 15_000, `a history row of ${id}`);
  return found;
}
