import type { ClusterStore } from '../../src/store/cluster-store.js';
import type { PendingPromptStore } from '../../src/store/pending-prompt-store.js';
import type { ScheduleStore } from '../../src/store/schedule-store.js';
import type { Store } from '../../src/store/store.js';

/**
 * How long a call waits, by the method's name (`schedules.`, `cluster.` or `pendingPrompts.` before those stores'):
 * a number is the wait before the call reaches the database; `response` is a wait after
 * it ran, before the caller hears (a network's two ways).
 */
export type DelayFor = (method: string) => number | { request: number; response: number };

const STORE_METHODS = [
  'createSession', 'getSession', 'listSessions', 'searchSessions', 'lastTurn', 'updateSession', 'addSessionCost', 'deleteSession',
  'startTurn', 'endTurn', 'listTurns', 'appendMessage', 'costTotals', 'listMessages', 'recoverInterruptedTurns', 'close',
] as const satisfies ReadonlyArray<keyof Store>;

const SCHEDULE_METHODS = [
  'listSchedules', 'getSchedule', 'saveSchedule', 'deleteSchedule', 'startRun', 'setRunSession', 'finishRun', 'lastRun', 'listRuns', 'recoverUnfinishedRuns',
] as const satisfies ReadonlyArray<keyof ScheduleStore>;

const CLUSTER_METHODS = [
  'registerDaemon', 'heartbeat', 'listDaemons', 'forgetDaemon', 'forgetGoneDaemon', 'claimSession', 'renewLeases', 'releaseSession', 'leaseOf',
] as const satisfies ReadonlyArray<keyof ClusterStore>;

const PENDING_PROMPT_METHODS = ['add', 'remove', 'list', 'claimOrphans', 'giveBack'] as const satisfies ReadonlyArray<keyof PendingPromptStore>;

/**
 * A real store whose every call waits before it reaches the database, as each call to a
 * store on a network database does: what a caller relied on finishing within the tick it
 * was made in shows. `inner` is the real store, for reading what is stored at a given moment.
 */
export interface DelayingStore extends Store {
  readonly inner: Store;
}

export function delayingStore(inner: Store, delayFor: DelayFor): DelayingStore {
  const wrap = <T extends object>(target: T, names: readonly string[], prefix: string): Record<string, unknown> => {
    const wrapped: Record<string, unknown> = {};
    for (const name of names) {
      const method = (target as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!;
      wrapped[name] = async (...args: unknown[]) => {
        const delay = delayFor(`${prefix}${name}`);
        const { request, response } = typeof delay === 'number' ? { request: delay, response: 0 } : delay;
        await sleep(request);
        const result = await method.apply(target, args);
        await sleep(response);
        return result;
      };
    }
    return wrapped;
  };
  return {
    ...wrap(inner, STORE_METHODS, ''),
    schedules: wrap(inner.schedules, SCHEDULE_METHODS, 'schedules.') as unknown as ScheduleStore,
    cluster: wrap(inner.cluster, CLUSTER_METHODS, 'cluster.') as unknown as ClusterStore,
    pendingPrompts: wrap(inner.pendingPrompts, PENDING_PROMPT_METHODS, 'pendingPrompts.') as unknown as PendingPromptStore,
    inner,
  } as unknown as DelayingStore;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
