import type { AgentdConfig } from '../../config/config-schema.js';
import { normalizeFolder } from '../../config/folder-roots.js';
import { MissingRootError, ServedFolders } from '../../config/served-folders.js';
import { failCheck, okCheck, type DoctorCheck } from './doctor-check.js';

/**
 * The folders the daemon would serve (`cluster.roots`), resolved as it resolves them at
 * start: every root that is not a folder on this machine fails (the daemon would not start).
 * No line without roots: the daemon then serves every folder, as it always did.
 */
export function checkClusterRoots(config: AgentdConfig): DoctorCheck[] {
  const configured = config.cluster?.roots ?? [];
  if (configured.length === 0) return [];
  const missing: string[] = [];
  const served: string[] = [];
  for (const entry of configured) {
    try {
      served.push(...ServedFolders.resolve([entry]).roots.map((real) => (real === normalizeFolder(entry) ? real : `${normalizeFolder(entry)} (${real})`)));
    } catch (error) {
      if (!(error instanceof MissingRootError)) throw error;
      missing.push(error.message);
    }
  }
  if (missing.length > 0) {
    return [
      failCheck(
        'cluster:roots',
        'served folders',
        missing.join('\n'),
        'create each folder named above or correct its entry in cluster.roots; the daemon does not start until every root exists',
      ),
    ];
  }
  return [okCheck('cluster:roots', 'served folders', `sessions in ${served.join(', ')} (cluster.roots); other folders go to the daemons that serve them`)];
}
