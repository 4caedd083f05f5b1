import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuiltDaemonContext } from '../../src/daemon/create-daemon-context.js';
import { daemonEnv, makeHome } from './daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from './in-process-daemon.js';
import { createTestDatabase } from './postgres-server.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';
import type { RpcPeer } from './rpc-peer.js';

/** One in-process daemon of a test cluster, with the path prefix its model requests carry. */
export interface RootedDaemon {
  name: string;
  daemon: InProcessDaemon;
  peer: RpcPeer;
  context: BuiltDaemonContext;
}

/** What a test of `cluster.roots` starts: a loopback model, a database and a folder tree. */
export interface RootsTestBed {
  replay: ReplayServer;
  url: string;
  /** A real path (no symbolic link on the way), holding `a/app`, `b/app` and `c/app`. */
  dir: string;
  rootA: string;
  rootB: string;
  rootC: string;
  /**
   * Starts a daemon with its own home on the shared database: `cluster` is its config's
   * section, `config` more of its config. Its model requests go to `/NAME/v1/…` on the
   * replay server, so a request's path says which daemon ran the turn.
   */
  start(name: string, cluster: { roots?: string[]; leaseMs?: number; concurrency?: number }, config?: Record<string, unknown>): Promise<RootedDaemon>;
  /** Which daemons made the model requests so far, in order. */
  requestedBy(): string[];
  close(): Promise<void>;
}

/** A test bed of daemons serving different folders of one machine, on one PostgreSQL database. */
export async function startRootsTestBed(replayOptions: Parameters<typeof startReplayServer>[0] = {}): Promise<RootsTestBed> {
  const replay = await startReplayServer(replayOptions);
  const url = await createTestDatabase();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-roots-')));
  for (const name of ['a', 'b', 'c']) mkdirSync(join(dir, name, 'app'), { recursive: true });
  const daemons: InProcessDaemon[] = [];
  const homes: Array<ReturnType<typeof makeHome>> = [];
  return {
    replay,
    url,
    dir,
    rootA: join(dir, 'a'),
    rootB: join(dir, 'b'),
    rootC: join(dir, 'c'),
    async start(name, cluster, config = {}) {
      const home = makeHome({
        model: 'local/e2e-model',
        providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/${name}/v1` } },
        store: { type: 'postgres', url },
        cluster,
        ...config,
      });
      homes.push(home);
      const daemon = startInProcessDaemon(daemonEnv(home.home), dir);
      daemons.push(daemon);
      await daemon.peer.call('initialize', { protocolVersion: 1 });
      const context = (await daemon.context()) as BuiltDaemonContext;
      return { name, daemon, peer: daemon.peer, context };
    },
    requestedBy: () => replay.requests.map((request) => request.path.split('/')[1]!),
    async close() {
      await Promise.all(daemons.splice(0).map((daemon) => daemon.close()));
      await replay.close();
      for (const home of homes.splice(0)) home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
