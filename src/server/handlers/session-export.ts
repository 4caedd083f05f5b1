import { exportSession } from '../../session/session-export.js';
import type { RequestHandler } from '../handler-table.js';

/** The session as a file, from its record and the store: a stored session stays unloaded. */
export const sessionExport: RequestHandler<'session/export'> = async (params, { daemon }) => {
  const record = await daemon.sessions.record(params.sessionId);
  return exportSession(record, await daemon.sessions.turns(record.id), await daemon.sessions.messages(record.id), params.format);
};
