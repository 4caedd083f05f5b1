import type { StoreConfig } from '../../config/config-schema.js';
import type { TurnSlots } from '../../session/turn-slots.js';
import type { DaemonWorkQueue } from './daemon-work-queue.js';
import { InProcessWorkQueue } from './in-process-work-queue.js';

/**
 * The daemon's work queue for its store: pg-boss in the PostgreSQL store's database, shared
 * by every daemon on it, or this daemon's memory on the SQLite default. The pg-boss module
 * is loaded only when chosen, so the SQLite path never pays for it.
 */
export async function openWorkQueue(choice: StoreConfig, slots: TurnSlots, log: (line: string) => void): Promise<DaemonWorkQueue> {
  if (choice.type !== 'postgres') return new InProcessWorkQueue(slots, log);
  const { PgBossWorkQueue } = await import('./pg-boss-work-queue.js');
  return new PgBossWorkQueue(choice.url, slots, log);
}
