import type { DaemonContext } from '../daemon-context.js';
import { noDaemonForFolder } from '../folder-errors.js';
import { findServingDaemons, storeSharing } from '../serving-daemons.js';
import type { ForwardTarget } from '../session-routing.js';

/**
 * Where a request for a session runs: on the daemon that owns it (holds its lease); else,
 * when this daemon's `cluster.roots` do not hold the session's folder, on the least loaded
 * live daemon that serves it; else here (undefined). A daemon without roots serves every
 * folder and reads nothing more than the owner. Throws `no_daemon_for_folder` when nobody serves it.
 */
export async function sessionTarget(daemon: DaemonContext, method: string, sessionId: string): Promise<ForwardTarget | undefined> {
  const owner = await daemon.routing.ownerElsewhere(sessionId);
  if (owner !== undefined) return { daemonId: owner, role: 'owner' };
  if (daemon.folders.all) return undefined;
  const { cwd } = await daemon.sessions.record(sessionId);
  if (daemon.folders.serves(cwd)) return undefined;
  const [serving] = await findServingDaemons(daemon, cwd);
  if (!serving) throw noDaemonForFolder(method, sessionId, cwd, daemon.folders.roots, storeSharing(daemon));
  return { daemonId: serving.id, role: 'serving' };
}
