import { exportSession } from '../../session/session-export.js';
import type { RequestHandler } from '../handler-table.js';

/** The session as a file, from its record and the store: a stored session stays unloaded. */
export const sessionExport: RequestHandler<'session/export'> = (params, { daemon }) => {
  const record = daemon.sessions.record(params.sessionId);
  return exportSession(record, daemon.sessions.turns(record.id), daemon.sessions.messages(record.id), params.format);
};
