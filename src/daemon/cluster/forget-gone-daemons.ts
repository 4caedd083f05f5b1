import type { ClusterStore } from '../../store/cluster-store.js';
import type { DaemonSessionRouting } from './daemon-session-routing.js';

/**
 * A daemon without a heartbeat for this many of its leases is forgotten. Its sessions were
 * free to take after one lease; by three, requests other daemons had sent it were routed
 * again (they look every 250 ms), so its queue can go.
 */
export const GONE_AFTER_LEASES = 3;

/**
 * What a daemon that died leaves in the database is cleared by the live ones: its row in
 * the registry (so `daemon/cluster` and `agentd status` do not list it forever), the turns
 * it left `running` in sessions nobody took since (marked `interrupted` at once rather
 * than when the session is next prompted), and its own pg-boss queue. Also removed: queues
 * of daemons no longer registered at all (one that stopped before it could remove its own).
 * Every daemon sweeps once per lease; the store's statement lets one of them forget a daemon once.
 */
export class GoneDaemonSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly cluster: ClusterStore,
    private readonly routing: Pick<DaemonSessionRouting, 'daemonId' | 'daemonQueues' | 'removeQueueOf'>,
    private readonly everyMs: number,
    private readonly log: (line: string) => void,
  ) {}

  /** On a store no other daemon uses (SQLite) there is nobody else to clear up after: no timer. */
  start(): void {
    if (!this.cluster.shared) return;
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .then(() => undefined, (error: Error) => this.log(`cannot clear up after gone daemons: ${error.message}`))
        .finally(() => (this.sweeping = undefined));
    }, this.everyMs);
    this.timer.unref();
  }

  /** One sweep; returns the daemons this one forgot. */
  async sweep(): Promise<string[]> {
    // Queues first: a daemon registers before it makes its queue, so every queue seen here belongs to a daemon listed below or to none.
    const queued = await this.routing.daemonQueues();
    const daemons = await this.cluster.listDaemons();
    const forgotten: string[] = [];
    for (const daemon of daemons) {
      const goneForMs = GONE_AFTER_LEASES * daemon.leaseMs;
      if (daemon.id === this.routing.daemonId || daemon.alive || daemon.heartbeatAgeMs < goneForMs) continue;
      if (!(await this.cluster.forgetGoneDaemon(daemon.id, goneForMs))) continue;
      forgotten.push(daemon.id);
      this.log(`forgot daemon ${daemon.id} (${daemon.host}, pid ${daemon.pid}): no heartbeat for ${Math.round(daemon.heartbeatAgeMs / 1000)} s; its running turns are marked interrupted`);
    }
    const registered = new Set(daemons.filter((daemon) => !forgotten.includes(daemon.id)).map((daemon) => daemon.id));
    for (const daemonId of queued) {
      if (registered.has(daemonId) || daemonId === this.routing.daemonId) continue;
      await this.routing.removeQueueOf(daemonId).catch((error: Error) => this.log(`cannot remove the queue of gone daemon ${daemonId}: ${error.message}`));
    }
    return forgotten;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
