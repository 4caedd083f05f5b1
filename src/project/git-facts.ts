import type { SandboxInfo } from '../tools/sandbox/detect-sandbox.js';
import { resolveSandboxMounts, type SandboxMounts } from '../tools/sandbox/resolve-sandbox-mounts.js';
import { runSandboxed } from '../tools/sandbox/run-sandboxed.js';
import { sandboxEnv } from '../tools/sandbox/sandbox-env.js';
import type { SandboxPolicy } from '../tools/sandbox/sandbox-policy.js';
import { readGitHead } from '../config/read-git-head.js';

/** What the system prompt says about the repository the session works in. */
export interface GitFacts {
  /** The checked-out branch, or `detached at <short sha>`. */
  branch?: string;
  /** The working tree in a few words, e.g. `3 modified, 1 untracked`, or `clean`. */
  status?: string;
}

/** git usually answers in milliseconds; a huge or networked tree must not hold up a session. */
export const GIT_TIMEOUT_MS = 3_000;

export interface GitFactsOptions {
  /** Whether bubblewrap works; without it no git process runs and only the branch is known. */
  sandbox: SandboxInfo;
  /** What the sandbox hides and which variables pass. */
  policy: SandboxPolicy;
  /** The daemon's environment, filtered through the policy. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * The branch, read from `.git/HEAD` without running anything, and the working-tree
 * summary from `git status`, run only inside the sandbox: read-only, without network, with
 * the allowlisted environment, and with everything that makes git start programs switched
 * off (fsmonitor, hooks, every configured filter driver, submodule recursion). A
 * repository's `.git/config` is untrusted, so git never runs outside the sandbox; the
 * switches are a second line. Undefined outside a repository.
 */
export async function gitFacts(cwd: string, options: GitFactsOptions): Promise<GitFacts | undefined> {
  const head = readGitHead(cwd);
  if (head === undefined) return undefined;
  const facts: GitFacts = head.branch !== undefined ? { branch: head.branch } : {};
  if (options.sandbox.mode !== 'bubblewrap') return facts;
  let mounts: SandboxMounts;
  try {
    // The git dirs are roots too, so one inside a hidden path (a `gitdir:` pointing into ~/.ssh) refuses.
    const dirs = [head.worktree, head.gitDir, ...(head.commonDir ? [head.commonDir] : [])];
    mounts = resolveSandboxMounts({ hidden: options.policy.hidden, roots: [...new Set(dirs)].map((dir) => ({ dir, writable: false })) });
  } catch {
    return facts;
  }
  const run = (argv: string[]): ReturnType<typeof runSandboxed> =>
    runSandboxed({ argv, cwd: head.cwd, mounts, env: gitEnv(options), timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS });
  const filters = await run(['git', 'config', '--null', '--name-only', '--get-regexp', '^filter\\.']);
  const status = await run(['git', ...safetySwitches(filterDrivers(filters?.stdout ?? '')), 'status', '--porcelain=v2', '--branch', '--ignore-submodules=all']);
  if (status !== undefined) facts.status = parseGitStatus(status.stdout).status;
  return facts;
}

/**
 * `-c` switches that win over every config file (git-config(1), "command line"): no
 * fsmonitor program, no hooks (post-index-change), no external diff, no submodule
 * recursion, and every filter driver's clean, smudge and process command empty, since
 * `.gitattributes` or `.git/info/attributes` may name any of them.
 */
export function safetySwitches(drivers: readonly string[]): string[] {
  const settings = ['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'diff.external=', 'submodule.recurse=false', 'status.submoduleSummary=false'];
  for (const driver of drivers) for (const key of ['clean', 'smudge', 'process']) settings.push(`filter.${driver}.${key}=`);
  return ['--no-optional-locks', ...settings.flatMap((setting) => ['-c', setting])];
}

/** Driver names from `git config --null --name-only --get-regexp '^filter\.'` (`filter.<driver>.<key>`). */
export function filterDrivers(output: string): string[] {
  const names = output.split('\0').filter((name) => name.startsWith('filter.') && name.lastIndexOf('.') > 'filter.'.length);
  return [...new Set(names.map((name) => name.slice('filter.'.length, name.lastIndexOf('.'))))];
}

/**
 * The allowlisted environment (no key, no variable pointing git at another repository),
 * without prompts or optional locks, which would block the user's own git commands
 * (https://git-scm.com/docs/git#Documentation/git.txt-codeGITOPTIONALLOCKScode).
 */
function gitEnv(options: GitFactsOptions): NodeJS.ProcessEnv {
  return { ...sandboxEnv(options.env ?? process.env, options.policy.env), GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
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
