import type { AgentdConfig } from '../../config/config-schema.js';
import type { ServedFolders } from '../../config/served-folders.js';
import type { SessionManager } from '../../session/session-manager.js';
import type { Store } from '../../store/store.js';
import { createDaemonId } from './daemon-identity.js';
import { LeaseKeeper } from './lease-keeper.js';
import { StoreSessionLeases } from './store-session-leases.js';

/** The lease length when the config sets none: a dead daemon's sessions wait this long at most. */
export const DEFAULT_LEASE_MS = 10_000;
/** Turns one daemon runs at once when `cluster.concurrency` is not set. */
export const DEFAULT_CONCURRENCY = 8;

/** This daemon in the cluster: its id, its sessions' leases and the keeper renewing them. */
export interface ClusterMembership {
  readonly daemonId: string;
  readonly leaseMs: number;
  /** The folders whose sessions it serves, registered with it (their real paths; none: every folder). */
  readonly folders: ServedFolders;
  /** The same roots, as the work queue takes jobs by them (empty: every folder). */
  readonly roots: readonly string[];
  readonly leases: StoreSessionLeases;
  /** The ids of the daemons alive now, by the registry (this one included while its heartbeats go on). */
  liveDaemonIds(): Promise<string[]>;
  readonly keeper: LeaseKeeper;
  /** Starts the heartbeats; a session whose lease another daemon took has its running turn stopped. */
  follow(sessions: SessionManager): void;
  /** Clean shutdown (after the sessions stopped): releases every lease and leaves the registry. */
  leave(): Promise<void>;
}

/**
 * Registers this daemon in the store's registry under a new id, with the folders it serves
 * (resolved by the caller: a root missing here stops the start before it joins). On the
 * SQLite default it is the one daemon of its data directory, and the same calls keep working unchanged.
 */
export async function joinCluster(store: Store, config: AgentdConfig, folders: ServedFolders, log: (line: string) => void): Promise<ClusterMembership> {
  const daemonId = createDaemonId();
  const leaseMs = config.cluster?.leaseMs ?? DEFAULT_LEASE_MS;
  const leases = new StoreSessionLeases(store.cluster, daemonId, leaseMs, log);
  let sessions: SessionManager | undefined;
  const keeper = new LeaseKeeper({
    cluster: store.cluster,
    daemonId,
    leaseMs,
    roots: [...folders.roots],
    concurrency: config.cluster?.concurrency ?? DEFAULT_CONCURRENCY,
    runningTurns: () => sessions?.liveSessions().filter((session) => session.state === 'running' || session.state === 'aborting').length ?? 0,
    lost: (ids) => {
      for (const id of ids) {
        leases.lost(id);
        sessions?.get(id)?.leaseLost();
      }
    },
    log,
  });
  await keeper.register();
  return {
    daemonId,
    leaseMs,
    folders,
    roots: folders.roots,
    leases,
    keeper,
    async liveDaemonIds() {
      return (await store.cluster.listDaemons()).filter((daemon) => daemon.alive).map((daemon) => daemon.id);
    },
    follow(manager) {
      sessions = manager;
      keeper.start();
    },
    async leave() {
      await leases.settled();
      try {
        await keeper.leave();
      } catch (error) {
        log(`could not leave the cluster (this daemon's leases expire by themselves): ${(error as Error).message}`);
      }
    },
  };
}
