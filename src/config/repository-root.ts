import { statSync } from 'node:fs';
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

/** The folder a session directory's own files must stay in: its repository, or the directory itself outside one. */
export function projectBoundary(cwd: string): string {
  return repositoryRoot(cwd) ?? path.resolve(cwd);
}

function hasEntry(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
