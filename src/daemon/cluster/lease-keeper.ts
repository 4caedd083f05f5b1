import os from 'node:os';
import type { ClusterStore } from '../../store/cluster-store.js';
import { StoreError } from '../../store/store-error.js';

export interface LeaseKeeperOptions {
  cluster: ClusterStore;
  daemonId: string;
  leaseMs: number;
  roots: string[];
  concurrency: number;
  /** The turns this daemon runs now, told with each heartbeat. */
  runningTurns(): number;
  /** Sessions whose lease another daemon took (this one failed to renew it in time). */
  lost(sessionIds: string[]): void;
  log(line: string): void;
}

/**
 * This daemon's membership of the cluster: registered at start, then every third of a
 * lease a heartbeat and the renewal of the leases it holds (so one missed tick still
 * leaves time), and forgotten at a clean shutdown, which frees its sessions at once. The
 * timer is unref'd: it never keeps the process alive on its own; on a store no other daemon
 * uses there is none.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly options: LeaseKeeperOptions) {}

  /** Registers the daemon; the heartbeats start with `start`. */
  async register(): Promise<void> {
    const { cluster, daemonId, leaseMs, roots, concurrency } = this.options;
    await cluster.registerDaemon({ id: daemonId, host: os.hostname(), pid: process.pid, roots, concurrency, leaseMs });
  }

  start(): void {
    // One daemon's store (SQLite): no other daemon reads heartbeats or could take a lease, so no timer writes every few seconds.
    if (!this.options.cluster.shared) return;
    const interval = Math.max(1, Math.floor(this.options.leaseMs / 3));
    this.timer = setInterval(() => {
      // A tick still waiting for the database is not doubled.
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, interval);
    this.timer.unref();
  }

  /** One heartbeat and renewal; lost sessions are reported, a failure is logged (the next tick retries). */
  async tick(): Promise<void> {
    const { cluster, daemonId, leaseMs } = this.options;
    try {
      await cluster.heartbeat(daemonId, { runningTurns: this.options.runningTurns() });
    } catch (error) {
      this.options.log(`cluster heartbeat failed: ${(error as Error).message}`);
      // Forgotten (an operator removed the row): join again; the database failing is retried next tick.
      if (error instanceof StoreError && error.code === 'not_found') await this.register().catch(() => undefined);
    }
    try {
      const lost = await cluster.renewLeases(daemonId, leaseMs);
      if (lost.length > 0) {
        this.options.log(`lost the lease of ${lost.length} session(s) to another daemon: ${lost.join(', ')}`);
        this.options.lost(lost);
      }
    } catch (error) {
      this.options.log(`could not renew the session leases: ${(error as Error).message}`);
    }
  }

  /** Stops the heartbeats without a goodbye (what a killed daemon leaves behind). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** Clean shutdown: stops, then removes the daemon and releases every lease it still holds. */
  async leave(): Promise<void> {
    await this.stop();
    await this.options.cluster.forgetDaemon(this.options.daemonId);
  }
}
