import { SessionBusyError } from '../../session/session.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../rpc-error.js';
import { openSession } from './open-session.js';

/** Summarizes the older conversation now; refused while a turn runs. */
export const sessionCompact: RequestHandler<'session/compact'> = async (params, { daemon }) => {
  const session = openSession(daemon, params.sessionId);
  try {
    return { compacted: await session.compactNow() };
  } catch (error) {
    if (error instanceof SessionBusyError) throw RpcError.sessionBusy(session.id);
    throw error;
  }
};
