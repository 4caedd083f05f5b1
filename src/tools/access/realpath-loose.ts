import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tool-error.js';

/** Symlink hops allowed while resolving one path (Linux `MAXSYMLINKS` is 40). */
const MAX_SYMLINK_HOPS = 40;

/**
 * `fs.realpath` for paths that may not exist yet: the nearest existing ancestor is
 * resolved and the rest appended. A dangling symlink is followed to where a write would
 * land, so `link -> /etc/new-file` cannot be used to create files outside the workspace.
 */
export async function realpathLoose(absolutePath: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw new ToolError(`Too many levels of symbolic links resolving ${absolutePath}.`);
  try {
    return await realpath(absolutePath);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const link = await lstat(absolutePath).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(absolutePath), await readlink(absolutePath));
    return realpathLoose(target, hops + 1);
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  return path.join(await realpathLoose(parent, hops), path.basename(absolutePath));
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
