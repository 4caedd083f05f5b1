import type { RequestHandler } from '../handler-table.js';

/**
 * The store in use, every daemon registered in it (on the SQLite default, this one) and
 * the work queue's depth: what `agentd status` shows of the cluster.
 */
export const daemonCluster: RequestHandler<'daemon/cluster'> = async (_params, { daemon }) => {
  const [daemons, waiting, running] = await Promise.all([daemon.sessions.store.cluster.listDaemons(), daemon.work.waiting(), daemon.work.runningByDaemon()]);
  const self = daemon.routing.daemonId;
  return {
    store: daemon.storeInUse,
    daemonId: self,
    daemons: daemons.map((info) => ({
      id: info.id,
      self: info.id === self,
      host: info.host,
      pid: info.pid,
      startedAt: info.startedAt,
      heartbeatAt: info.heartbeatAt,
      heartbeatAgeMs: Math.max(0, Math.round(info.heartbeatAgeMs)),
      // The daemon answering is alive, whatever its last heartbeat says (on SQLite it sends none).
      alive: info.id === self || info.alive,
      runningTurns: info.runningTurns,
      queuedRunning: running[info.id] ?? 0,
      concurrency: info.concurrency,
      roots: info.roots,
      sessionsOwned: info.sessionsOwned,
    })),
    queue: { kind: daemon.work.kind, waiting, heldHere: daemon.work.held },
  };
};
