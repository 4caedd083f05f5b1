import path from 'node:path';

/**
 * Directories whose files run code or decide permissions later: `.git/` (config with
 * fsmonitor, hooks, filter drivers) and `.agentd/` (agents, config, skills).
 * Compared ignoring case, since `.GIT` is `.git` on case-insensitive file systems.
 */
const PROTECTED_DIRS = ['.git', '.agentd'];

/**
 * Why writing to any of these spellings of one target (as written, symlinks resolved)
 * needs the user's explicit consent, or undefined when none lies in a protected
 * directory. Any `.git` or `.agentd` segment counts, so nested repositories
 * (`sub/.git/config`) and the `.git` file of a worktree are covered too.
 */
export function protectedPathReason(spellings: readonly string[]): string | undefined {
  for (const spelling of spellings) {
    const segments = path.resolve(spelling).split(path.sep);
    const hit = segments.find((segment) => PROTECTED_DIRS.includes(segment.toLowerCase()));
    if (hit !== undefined) {
      return `${spelling} is inside ${hit}, where a change can run code or change agentd's behaviour later; it is never written without asking`;
    }
  }
  return undefined;
}
