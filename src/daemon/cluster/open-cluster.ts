import type { StoreConfig } from '../../config/config-schema.js';
import type { TurnSlots } from '../../session/turn-slots.js';
import type { DaemonSessionRouting } from './daemon-session-routing.js';
import { localSessionRouting } from './daemon-session-routing.js';
import type { DaemonWorkQueue } from './daemon-work-queue.js';
import { InProcessWorkQueue } from './in-process-work-queue.js';
import type { PromptTaker } from './pg-boss-work-queue.js';
import type { FindSessionOwner } from './session-owner.js';

/** What a daemon shares with the others of its cluster: the work queue and the way to a session's owner. */
export interface ClusterLinks {
  work: DaemonWorkQueue;
  routing: DaemonSessionRouting;
  /** After both have stopped: lets the database connection go. */
  close(): Promise<void>;
}

/**
 * The daemon's links for its store: on the PostgreSQL store one pg-boss (schema `pgboss`)
 * carries the work queue shared by every daemon and each daemon's own queue of forwarded
 * requests; on the SQLite default the queue lives in the daemon's memory and nothing is
 * forwarded. pg-boss is loaded only when chosen, so the SQLite path never pays for it.
 */
export async function openCluster(
  choice: StoreConfig,
  parts: {
    /** This daemon (the cluster membership): its id, its roots and who lives, for the queue and the routing. */
    taker: PromptTaker;
    slots: TurnSlots;
    findSessionOwner: FindSessionOwner;
    log: (line: string) => void;
  },
): Promise<ClusterLinks> {
  const { taker, slots, findSessionOwner, log } = parts;
  const { daemonId } = taker;
  if (choice.type !== 'postgres') {
    return { work: new InProcessWorkQueue(daemonId, slots, log), routing: localSessionRouting(daemonId), close: async () => undefined };
  }
  const [{ PgBossConnection }, { PgBossWorkQueue }, { PgBossSessionRouting }] = await Promise.all([
    import('./pg-boss-connection.js'),
    import('./pg-boss-work-queue.js'),
    import('./pg-boss-session-routing.js'),
  ]);
  const connection = await PgBossConnection.open(choice.url, log);
  return {
    work: new PgBossWorkQueue(connection, slots, taker, log),
    routing: new PgBossSessionRouting(daemonId, connection, findSessionOwner, () => taker.liveDaemonIds(), log),
    close: () => connection.close(),
  };
}
