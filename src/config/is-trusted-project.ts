import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Whether `dir` is one of the user's `trustedProjects` or inside one. Both sides are
 * compared as real paths (symlinks resolved, `~` expanded, trailing slashes dropped), so
 * `/home/u/p`, `/home/u/p/` and a symlink to it are the same project. A subdirectory of a
 * trusted project is trusted, as Claude Code and Codex trust a project root and its
 * subfolders: a session opened in `p/packages/a` is still working in `p`.
 */
export function isTrustedProject(dir: string, trustedProjects: readonly string[]): boolean {
  const real = realDir(dir);
  return trustedProjects.some((entry) => {
    const root = realDir(entry);
    return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  });
}

/** The real path of a directory; its resolved spelling when it does not exist (yet). */
export function realDir(dir: string): string {
  const expanded = dir === '~' || dir.startsWith('~/') ? path.join(os.homedir(), dir.slice(1)) : dir;
  const resolved = path.resolve(expanded);
  try {
    return fs.realpathSync.native(resolved);
  } catch {
    return resolved;
  }
}
