import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Roots already found, per start directory: a project does not move between turns. */
const roots = new Map<string, string | undefined>();

/**
 * The nearest directory from `start` upwards that holds `.git` (a directory, or a file in
 * worktrees and submodules), or undefined outside a repository. The files agentd reads
 * from a project (AGENTS.md, `.agentd/` config, agents, skills) must resolve inside it.
 */
export function repositoryRoot(start: string): string | undefined {
  const key = path.resolve(start);
  if (roots.has(key)) return roots.get(key);
  let found: string | undefined;
  for (let dir = key; ; dir = path.dirname(dir)) {
    if (hasEntry(path.join(dir, '.git'))) {
      found = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  roots.set(key, found);
  return found;
}

/**
 * The folders a session directory's own files must stay in: its repository (or the
 * directory itself outside one), found from the directory as written and from its real
 * path. The two differ when the directory is reached through a symlink (a project
 * linked into another repository); files of either view are the project's own.
 */
export function projectBoundaries(cwd: string): string[] {
  const written = path.resolve(cwd);
  let real = written;
  try {
    real = realpathSync.native(written);
  } catch {
    // A directory that does not exist has no files to read anyway.
  }
  const boundaries = [repositoryRoot(written) ?? written, repositoryRoot(real) ?? real];
  return boundaries[0] === boundaries[1] ? [boundaries[0]!] : boundaries;
}

function hasEntry(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
