import path from 'node:path';

/*
 * `cluster.roots`: the folders whose sessions a daemon serves. Pure path arithmetic, no
 * file system: the daemon resolves real paths before it asks (served-folders.ts), and the
 * work queue's SQL compares a job's `cwd` with a root by the same rule
 * (`cwd = root OR starts_with(cwd, root || '/')`, the root `/` matching every folder), so
 * both sides must spell folders the way normalizeFolder does.
 */

/**
 * An absolute folder in one spelling: `//` and `.` segments collapsed, `..` applied, no
 * trailing slash except for `/` itself. Only for absolute paths (rootProblem refuses others).
 */
export function normalizeFolder(folder: string): string {
  // path.posix.resolve of an absolute path never reads the process's cwd.
  return path.posix.resolve(folder);
}

/** Why `entry` cannot be a root, or undefined when it can: what the config error says, with the fix. */
export function rootProblem(entry: string): string | undefined {
  if (entry.trim() === '') return 'an empty folder; write an absolute folder like "/srv/work", or remove the entry';
  if (entry === '~' || entry.startsWith('~/')) {
    return `${JSON.stringify(entry)} starts with ~, which is not expanded here; write the folder in full, like "/home/you/work"`;
  }
  if (!entry.startsWith('/')) return `${JSON.stringify(entry)} is a relative path; write an absolute folder like "/srv/work"`;
  if (entry.includes('\0')) return `${JSON.stringify(entry)} holds a NUL character, which no folder name can; remove it`;
  return undefined;
}

/**
 * Whether `folder` is one of `roots` or inside one, by whole path components: `/srv/work`
 * serves `/srv/work` and `/srv/work/app`, never `/srv/workshop`, and `/srv/work/../x` is
 * `/srv/x`. Both sides are normalized here; no roots means every folder.
 */
export function rootsServe(roots: readonly string[], folder: string): boolean {
  if (roots.length === 0) return true;
  // A relative folder would be read against this process's cwd: it is inside nothing.
  if (!folder.startsWith('/')) return false;
  const target = normalizeFolder(folder);
  return roots.some((root) => isInside(normalizeFolder(root), target));
}

/** `folder` equals `root` or lies under it; both normalized. */
function isInside(root: string, folder: string): boolean {
  if (root === '/') return true;
  return folder === root || folder.startsWith(`${root}/`);
}
