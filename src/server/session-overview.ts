import type { SessionOverview, SessionOverviewState } from '../../protocol/index.js';
import type { OpenPermissionQuestion } from '../session/open-permission-questions.js';
import type { Session } from '../session/session.js';
import type { SessionRecord, TurnRecord } from '../store/store.js';

/** What one session's overview is made of: its record, its newest turn, and when live, the session and its open question. */
export interface SessionFacts {
  record: SessionRecord;
  lastTurn: TurnRecord | undefined;
  live: Session | undefined;
  question: OpenPermissionQuestion | undefined;
}

/**
 * The state a dashboard shows: an open question wins, then a live session's own busy
 * state; an idle or stored session whose last turn ended in an error has failed.
 */
export function overviewState(facts: Omit<SessionFacts, 'record'>): SessionOverviewState {
  if (facts.live !== undefined && facts.question !== undefined) return 'waiting_permission';
  if (facts.live !== undefined && facts.live.state !== 'idle') return facts.live.state;
  if (facts.lastTurn?.status === 'error') return 'failed';
  return facts.live !== undefined ? 'idle' : 'closed';
}

/** One session as `daemon/sessions` and the `session_changed` event show it. */
export function sessionOverview(facts: SessionFacts): SessionOverview {
  // The live record when there is one: its cost counts the turn in progress.
  const record = facts.live?.record ?? facts.record;
  const state = overviewState(facts);
  return {
    sessionId: record.id,
    cwd: record.cwd,
    title: record.title,
    state,
    mode: record.mode,
    model: record.model,
    costUsd: record.totalCostUsd,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    live: facts.live !== undefined,
    ...(state === 'failed' && facts.lastTurn?.error ? { lastError: facts.lastTurn.error } : {}),
    ...(state === 'waiting_permission' && facts.question ? { pendingPermission: facts.question } : {}),
  };
}
