import type { RequestHandler } from '../handler-table.js';

/**
 * One session's facts from its record, and its state when it is live. A stored session
 * stays stored: nothing is loaded, replayed or started to answer.
 */
export const sessionInfo: RequestHandler<'session/info'> = async (params, { daemon }) => {
  // The live record when there is one: its cost counts the turn in progress.
  const record = await daemon.sessions.record(params.sessionId);
  const live = daemon.sessions.get(params.sessionId);
  return {
    sessionId: record.id,
    cwd: record.cwd,
    additionalDirectories: record.additionalDirectories,
    title: record.title,
    mode: record.mode,
    model: record.model,
    costUsd: record.totalCostUsd,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    live: live !== undefined,
    state: live?.state ?? 'closed',
  };
};
