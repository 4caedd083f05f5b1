import type { SessionOverviewState } from '../../../../protocol/index.js';

const LABELS: Record<SessionOverviewState, string> = {
  idle: 'idle',
  running: 'running',
  compacting: 'compacting',
  aborting: 'stopping',
  waiting_permission: 'waiting for permission',
  failed: 'failed',
  closed: 'closed',
};

/** A session state in words, for the list and the filter. */
export function stateLabel(state: SessionOverviewState): string {
  return LABELS[state];
}

/** Every state, in the order the filter offers them. */
export const SESSION_STATES = Object.keys(LABELS) as SessionOverviewState[];
