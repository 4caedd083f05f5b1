import { ErrorCodes } from '../../protocol/index.js';
import type { DaemonInfo } from '../store/cluster-store.js';
import { RpcError } from './wire/rpc-error.js';

function named(daemons: readonly DaemonInfo[]): Array<{ id: string; host: string }> {
  return daemons.map(({ id, host }) => ({ id, host }));
}

function listed(daemons: readonly DaemonInfo[]): string {
  return daemons.map(({ id, host }) => `${id} on ${host}`).join(', ');
}

/** Where the daemons are: on a store they share (PostgreSQL), or this one alone (SQLite). */
export type StoreSharing = 'shared' | 'alone';

/**
 * A session cannot start here: this daemon's `cluster.roots` do not hold `folder`. Names
 * the live daemons that serve it (a client connects to one of them) and the setting to
 * change to serve it here.
 */
export function folderNotServed(method: string, folder: string, roots: readonly string[], serving: readonly DaemonInfo[], sharing: StoreSharing): RpcError {
  const fix = "add the folder to this daemon's cluster.roots in config.json and restart it";
  const what =
    serving.length > 0
      ? `connect to a daemon that serves it (${listed(serving)}), or ${fix}`
      : sharing === 'shared'
        ? `no live daemon of the cluster serves it: start one whose cluster.roots hold it, or ${fix}`
        : fix;
  return new RpcError(
    ErrorCodes.InvalidParams,
    `${method}: this daemon does not serve ${folder} (its cluster.roots are ${roots.join(', ')}); ${what}`,
    { kind: 'folder_not_served', folder, roots: [...roots], servingDaemons: named(serving) },
  );
}

/**
 * Work for a session in `folder` has nowhere to run: no live daemon's `cluster.roots` hold
 * it (this one's included). Refused at once rather than queued to wait forever.
 */
export function noDaemonForFolder(method: string, sessionId: string, folder: string, roots: readonly string[], sharing: StoreSharing): RpcError {
  const where = `${folder}, the folder of session ${sessionId} (this daemon's cluster.roots are ${roots.join(', ')})`;
  const message =
    sharing === 'shared'
      ? `${method}: no live daemon serves ${where}; start a daemon whose cluster.roots hold it, or add it to the cluster.roots of one in config.json and restart it`
      : `${method}: this daemon does not serve ${where}, and no other daemon shares its store; add the folder to its cluster.roots in config.json and restart it`;
  return new RpcError(
    ErrorCodes.InvalidParams,
    message,
    { kind: 'no_daemon_for_folder', folder, roots: [...roots] },
  );
}
