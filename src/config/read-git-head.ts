import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { FILE_CAPS, readRepositoryFile } from './read-repository-file.js';

/** Where a working directory's repository lives, and what is checked out, read from files alone. */
export interface GitHead {
  /** The working directory, symlinks resolved. */
  cwd: string;
  /** The top of the working tree (the directory holding `.git`). */
  worktree: string;
  /** The git directory: `.git`, or where a `.git` file (`gitdir: …`) points for worktrees and submodules. */
  gitDir: string;
  /** The shared git directory of a linked worktree (`<gitDir>/commondir`), when there is one. */
  commonDir?: string;
  /** The checked-out branch, `detached at <short sha>`, or undefined when HEAD is unreadable. */
  branch?: string;
}

/** git's own limits on ref names (git-check-ref-format(1)): no spaces, controls, `~^:?*[\`. */
const BRANCH_NAME = /^[^\s~^:?*[\\\x00-\x1f\x7f]{1,200}$/;

/**
 * Finds the repository of `cwd` by walking up to the first `.git` (directory or `gitdir:`
 * file) and reads HEAD, without running git: a repository's config can make any git
 * command run programs (core.fsmonitor, filters, hooks). The files are untrusted: only
 * small regular files are read (a FIFO or device named HEAD cannot hang or flood the
 * daemon), a `gitdir:` target may lie anywhere but only its HEAD and commondir are read,
 * and a branch name that git itself would refuse is dropped rather than put in the prompt.
 */
export function readGitHead(cwd: string): GitHead | undefined {
  const real = realOrSelf(path.resolve(cwd));
  for (let dir = real; ; dir = path.dirname(dir)) {
    const found = gitDirAt(dir);
    if (found !== undefined) return describe(real, dir, found);
    if (path.dirname(dir) === dir) return undefined;
  }
}

function gitDirAt(dir: string): string | undefined {
  const entry = path.join(dir, '.git');
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (stat.isDirectory()) return realOrSelf(entry);
  const text = readSmallFile(entry);
  const match = text?.match(/^gitdir: (.+)$/m);
  return match ? realOrSelf(path.resolve(dir, match[1]!.trim())) : undefined;
}

function describe(cwd: string, worktree: string, gitDir: string): GitHead {
  const head: GitHead = { cwd, worktree, gitDir };
  const common = readSmallFile(path.join(gitDir, 'commondir'))?.trim();
  if (common) head.commonDir = realOrSelf(path.resolve(gitDir, common));
  const branch = branchOf(readSmallFile(path.join(gitDir, 'HEAD')));
  if (branch !== undefined) head.branch = branch;
  return head;
}

/** `ref: refs/heads/main` → `main`; a bare object id → `detached at 1a2b3c4`. */
export function branchOf(text: string | undefined): string | undefined {
  const line = text?.split('\n')[0]?.trim();
  if (!line) return undefined;
  if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(line)) return `detached at ${line.slice(0, 7)}`;
  const ref = line.match(/^ref: (.+)$/)?.[1]?.trim();
  if (ref === undefined) return undefined;
  const name = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  return BRANCH_NAME.test(name) ? name : undefined;
}

/**
 * The file's text when it is a regular file of at most FILE_CAPS.gitPointer (HEAD, `.git`
 * files and commondir are a line each; anything longer is not git's); undefined otherwise.
 * A `gitdir:` may point anywhere, so no repository bound applies.
 */
function readSmallFile(file: string): string | undefined {
  const read = readRepositoryFile(file, { root: undefined, cap: FILE_CAPS.gitPointer, overCap: 'refuse' });
  return read.kind === 'ok' ? read.text : undefined;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
