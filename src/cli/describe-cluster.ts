import type { DaemonClusterResponse } from '../../protocol/index.js';
import { showControlCharacters } from '../config/show-control-characters.js';

/** The store line, and on a shared store the queue and one line per daemon. */
export function describeCluster(cluster: DaemonClusterResponse): string[] {
  const { store, queue, daemons } = cluster;
  const lines = [`  store:    ${store.type === 'postgres' ? `PostgreSQL at ${store.location}` : `SQLite, ${store.location}`}`];
  if (store.type !== 'postgres') {
    const roots = daemons.find((daemon) => daemon.self)?.roots ?? [];
    if (roots.length > 0) lines.push(`  serves:   ${describeRoots(roots)}`);
    return lines;
  }
  const alive = daemons.filter((daemon) => daemon.alive).length;
  lines.push(`  cluster:  ${daemons.length} daemon(s), ${alive} alive; ${queue.waiting} queued prompt(s) waiting`);
  for (const daemon of daemons) {
    const state = daemon.alive ? `heartbeat ${(daemon.heartbeatAgeMs / 1000).toFixed(1)} s ago` : `gone (no heartbeat for ${Math.round(daemon.heartbeatAgeMs / 1000)} s)`;
    const self = daemon.self ? ' (this one)' : '';
    lines.push(
      `    ${daemon.id}${self}  ${daemon.host} pid ${daemon.pid}  ${state}  ${daemon.runningTurns}/${daemon.concurrency} turns (${daemon.queuedRunning} queued)  ${daemon.sessionsOwned.length} session(s) owned  serves ${describeRoots(daemon.roots)}`,
    );
  }
  return lines;
}

/** A daemon's `cluster.roots` as status prints them. */
function describeRoots(roots: readonly string[]): string {
  return roots.length === 0 ? 'every folder' : roots.map((root) => showControlCharacters(root)).join(', ');
}
