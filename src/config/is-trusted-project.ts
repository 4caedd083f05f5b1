import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Whether `dir` is one of the user's `trustedProjects`. Both sides are compared as real
 * paths (symlinks resolved, `~` expanded, trailing slashes dropped), so `/home/u/p`,
 * `/home/u/p/` and a symlink to it are the same project. Trust covers the listed
 * folder's own `.agentd` (config, agents, skills, hooks) and nothing below it: a
 * subfolder's `.agentd` is read as an untrusted project's unless that subfolder is listed
 * too, since a command in the trusted project (sandboxed bash may write there, only the
 * root's `.agentd` is read-only) or a vendored repository could have put it there.
 */
export function isTrustedProject(dir: string, trustedProjects: readonly string[]): boolean {
  const real = realDir(dir);
  return trustedProjects.some((entry) => realDir(entry) === real);
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
