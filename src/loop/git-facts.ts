import { execFile } from 'node:child_process';

/** What the system prompt says about the repository the session works in. */
export interface GitFacts {
  /** The checked-out branch, or `detached at <short sha>`. */
  branch?: string;
  /** The working tree in a few words, e.g. `3 modified, 1 untracked`, or `clean`. */
  status?: string;
}

/** git usually answers in milliseconds; a huge or networked tree must not hold up a session. */
export const GIT_TIMEOUT_MS = 3_000;

/**
 * Runs `git status --porcelain=v2 --branch` in `cwd` and summarizes it. Undefined when
 * git is not installed, `cwd` is not in a repository, or git is too slow. The v2
 * porcelain format is stable across git versions and locales
 * (https://git-scm.com/docs/git-status#_porcelain_format_version_2).
 */
export async function gitFacts(cwd: string, timeoutMs = GIT_TIMEOUT_MS): Promise<GitFacts | undefined> {
  const output = await runGit(cwd, ['status', '--porcelain=v2', '--branch'], timeoutMs);
  return output === undefined ? undefined : parseGitStatus(output);
}

/** Summarizes `git status --porcelain=v2 --branch` output. */
export function parseGitStatus(output: string): GitFacts {
  let head: string | undefined;
  let oid: string | undefined;
  const counts = new Map<string, number>();
  const count = (kind: string): void => {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  };
  for (const line of output.split('\n')) {
    if (line.startsWith('# branch.head ')) head = line.slice('# branch.head '.length);
    else if (line.startsWith('# branch.oid ')) oid = line.slice('# branch.oid '.length);
    else if (line.startsWith('? ')) count('untracked');
    else if (line.startsWith('u ')) count('conflicted');
    else if (line.startsWith('2 ')) count('renamed');
    else if (line.startsWith('1 ')) {
      // `1 XY …`: X is the staged change, Y the unstaged one.
      const xy = line.slice(2, 4);
      count(xy.includes('A') ? 'added' : xy.includes('D') ? 'deleted' : 'modified');
    }
  }
  const facts: GitFacts = {};
  if (head === '(detached)') facts.branch = oid !== undefined && oid !== '(initial)' ? `detached at ${oid.slice(0, 7)}` : 'detached';
  else if (head !== undefined) facts.branch = head;
  const order = ['modified', 'added', 'deleted', 'renamed', 'conflicted', 'untracked'];
  const parts = order.filter((kind) => counts.has(kind)).map((kind) => `${counts.get(kind)} ${kind}`);
  facts.status = parts.length > 0 ? parts.join(', ') : 'clean';
  return facts;
}

function runGit(cwd: string, args: string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: gitEnv(),
        windowsHide: true,
      },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

/**
 * The daemon's environment for git, minus the variables that point git at another
 * repository (set when the daemon was started from a git hook), so status describes
 * `cwd`. A read-only status must not take the index lock and block the user's own git
 * commands (https://git-scm.com/docs/git#Documentation/git.txt-codeGITOPTIONALLOCKScode).
 */
function gitEnv(): NodeJS.ProcessEnv {
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, GIT_INDEX_FILE: _index, ...env } = process.env;
  return { ...env, GIT_OPTIONAL_LOCKS: '0' };
}
