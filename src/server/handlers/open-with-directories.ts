import type { Session } from '../../session/session.js';
import type { DaemonContext } from '../daemon-context.js';
import { RpcError } from '../wire/rpc-error.js';
import { requireDirectory } from './require-directory.js';

/**
 * Opens a session for session/load or session/resume, honouring the request's
 * `additionalDirectories` (advertised as `sessionCapabilities.additionalDirectories`):
 * absent keeps the stored ones; given, they replace them. A session that is already live
 * keeps the roots its tools and sandbox were built with, so a different list for it is
 * refused with what to do, rather than silently ignored.
 */
export async function openWithDirectories(method: 'session/load' | 'session/resume', daemon: DaemonContext, sessionId: string, requested: string[] | undefined): Promise<Session> {
  await applyRequestedDirectories(method, daemon, sessionId, requested);
  return daemon.sessions.open(sessionId);
}

/** The check and update of openWithDirectories alone, for a caller that opens the session its own way (session/load). */
export async function applyRequestedDirectories(method: 'session/load' | 'session/resume', daemon: DaemonContext, sessionId: string, requested: string[] | undefined): Promise<void> {
  if (requested === undefined) return;
  requested.forEach((dir, i) => requireDirectory(method, `additionalDirectories[${i}]`, dir));
  const stored = (await daemon.sessions.record(sessionId)).additionalDirectories;
  const same = stored.length === requested.length && stored.every((dir, i) => dir === requested[i]);
  if (!same) {
    if (daemon.sessions.get(sessionId)) {
      throw RpcError.invalidParams(method, [
        `additionalDirectories: session ${sessionId} is open with ${JSON.stringify(stored)}; send those, or leave the field out, or close the session (session/close) before opening it with other directories`,
      ]);
    }
    await daemon.sessions.setAdditionalDirectories(sessionId, requested);
  }
}
