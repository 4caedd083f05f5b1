import type { FileStateTracker } from './file-state-tracker.js';
import { ToolError } from '../tool-error.js';

/**
 * Refuses to change an existing file the model has not read in this session, or that
 * changed on disk since it read it, so the model never overwrites work it has not seen.
 */
export async function requireFreshRead(fileState: FileStateTracker, realPath: string, shown: string): Promise<void> {
  const stale = await fileState.checkUnchanged(realPath);
  if (stale === 'not-read') {
    throw new ToolError(`${shown} already exists and has not been read in this session: read it first with the read tool, then try again.`);
  }
  if (stale === 'changed') {
    throw new ToolError(`${shown} has changed on disk since you last read it: read it first again to see the current content, then try again.`);
  }
}
