import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { FileStateTracker } from './file-state-tracker.js';

/** After write/edit, the model knows the file as written: later edits need no re-read. */
export async function recordWrittenFile(fileState: FileStateTracker, realPath: string, data: Buffer): Promise<void> {
  const info = await stat(realPath);
  fileState.record(realPath, {
    mtimeMs: info.mtimeMs,
    size: info.size,
    hash: createHash('sha256').update(data).digest('hex'),
  });
}
