import type { SessionOverviewState } from '../../../protocol/index.js';
import type { SessionSelection } from '../../store/store.js';
import { StoreError } from '../../store/store-error.js';
import type { RequestHandler } from '../handler-table.js';
import { overviewState, sessionOverview } from '../session-overview.js';
import { RpcError } from '../wire/rpc-error.js';

/**
 * Sessions of every project, newest activity first. The store filters and pages; a live
 * session's state is known only here, so a state filter selects the live sessions in that
 * state by id and the stored ones by how their last turn ended.
 */
export const daemonSessions: RequestHandler<'daemon/sessions'> = async (params, { daemon }) => {
  const questions = daemon.permissionQuestions;
  const live = daemon.sessions.liveSessions();
  const select = params.states === undefined ? undefined : selection(new Set(params.states), await Promise.all(live.map(async (session) => ({
    id: session.id,
    state: overviewState({ live: session, lastTurn: await daemon.sessions.lastTurn(session.id), question: questions.oldest(session.id) }),
  }))));
  let page;
  try {
    page = await daemon.sessions.search({
      ...(params.cwd !== undefined ? { cwd: params.cwd } : {}),
      ...(params.query !== undefined ? { titleContains: params.query } : {}),
      ...(select !== undefined ? { select } : {}),
      ...(params.cursor !== undefined ? { cursor: params.cursor } : {}),
      ...(params.limit !== undefined ? { limit: params.limit } : {}),
    });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'invalid_argument') throw RpcError.invalidParams('daemon/sessions', [`cursor: ${error.message}`]);
    throw error;
  }
  return {
    sessions: page.sessions.map(({ record, lastTurn }) =>
      sessionOverview({ record, lastTurn: lastTurn ?? undefined, live: daemon.sessions.get(record.id), question: questions.oldest(record.id) }),
    ),
    ...(page.nextCursor !== null ? { nextCursor: page.nextCursor } : {}),
    total: page.total,
  };
};

/** The store's selection for a state filter: the live sessions in a wanted state, and the stored ones when `failed` or `closed` is wanted. */
function selection(wanted: Set<SessionOverviewState>, live: Array<{ id: string; state: SessionOverviewState }>): SessionSelection {
  const ids = live.filter((session) => wanted.has(session.state)).map((session) => session.id);
  const failed = wanted.has('failed');
  const closed = wanted.has('closed');
  if (!failed && !closed) return { ids };
  return { ids, stored: { exceptIds: live.map((session) => session.id), ...(failed && closed ? {} : { lastTurnFailed: failed }) } };
}
