import { rootsServe } from '../config/folder-roots.js';
import { realFolderHere } from '../config/served-folders.js';
import type { DaemonInfo } from '../store/cluster-store.js';
import type { DaemonContext } from './daemon-context.js';
import type { StoreSharing } from './folder-errors.js';

/** A live daemon that serves a folder, as a folder error names it. */
export interface ServingDaemon {
  id: string;
  host: string;
}

/**
 * The live daemons among `daemons` whose roots serve `folder` (no roots: every folder),
 * `exceptId` left out, least loaded first (running turns over concurrency), ties by id so
 * every daemon picks the same one. The folder is judged by its real path where this
 * machine has it; each daemon registered its roots' real paths.
 */
export function servingDaemons(daemons: readonly DaemonInfo[], folder: string, exceptId: string): DaemonInfo[] {
  const target = realFolderHere(folder);
  const load = (daemon: DaemonInfo): number => daemon.runningTurns / Math.max(1, daemon.concurrency);
  return daemons
    .filter((daemon) => daemon.alive && daemon.id !== exceptId && rootsServe(daemon.roots, target))
    .sort((a, b) => load(a) - load(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The live daemons of the cluster, other than this one, that serve `folder`, least loaded
 * first. None on a store no other daemon shares (SQLite): a row left by a crash is no daemon.
 */
export async function findServingDaemons(daemon: DaemonContext, folder: string): Promise<DaemonInfo[]> {
  const { cluster } = daemon.sessions.store;
  if (!cluster.shared) return [];
  return servingDaemons(await cluster.listDaemons(), folder, daemon.routing.daemonId);
}

/** Whether other daemons may share this daemon's store: a folder error names them, or says there are none. */
export function storeSharing(daemon: DaemonContext): StoreSharing {
  return daemon.sessions.store.cluster.shared ? 'shared' : 'alone';
}
