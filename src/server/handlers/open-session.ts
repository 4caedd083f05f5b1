import type { Session } from '../../session/session.js';
import { SessionNotFoundError } from '../../session/session-manager.js';
import type { DaemonContext } from '../daemon-context.js';
import { RpcError } from '../rpc-error.js';

/** The live session for an id, or ResourceNotFound naming it. */
export function openSession(daemon: DaemonContext, sessionId: string): Session {
  try {
    return daemon.sessions.open(sessionId);
  } catch (error) {
    if (error instanceof SessionNotFoundError) throw RpcError.notFound(error.message);
    throw error;
  }
}

/** The stored record for an id, or ResourceNotFound naming it. */
export function requireSessionRecord(daemon: DaemonContext, sessionId: string): void {
  try {
    daemon.sessions.record(sessionId);
  } catch (error) {
    if (error instanceof SessionNotFoundError) throw RpcError.notFound(error.message);
    throw error;
  }
}
