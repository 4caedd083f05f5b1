import type { DaemonContext } from '../daemon-context.js';
import { folderNotServed } from '../folder-errors.js';
import { findServingDaemons, storeSharing } from '../serving-daemons.js';

/**
 * A live session starts only where its folder is served: outside this daemon's
 * `cluster.roots` it is refused, naming the live daemons that serve the folder. Without
 * roots nothing is read. A relative folder is left to the method's own check, which names the field.
 */
export async function requireServedFolder(method: string, daemon: DaemonContext, folder: string): Promise<void> {
  if (!folder.startsWith('/') || daemon.folders.serves(folder)) return;
  throw folderNotServed(method, folder, daemon.folders.roots, await findServingDaemons(daemon, folder), storeSharing(daemon));
}
