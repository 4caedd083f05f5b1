import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../access/is-inside.js';
import { ToolError } from '../tool-error.js';
import type { HiddenPath } from './hidden-paths.js';

/** Names inside every writable root that the sandbox keeps read-only (a planted git hook or project config runs later). */
export const PROTECTED_NAMES: readonly string[] = ['.git', '.agentd'];

/** Real, existing paths for wrapCommand, in the order they must be mounted. */
export interface SandboxMounts {
  /** Socket directories, emptied before the roots are bound. */
  systemHidden: string[];
  /** Files under those directories that programs need, put back read-only (resolv.conf's target). */
  reveal: string[];
  /** The workspace and additional directories; git facts bind them read-only. */
  roots: Array<{ dir: string; writable: boolean }>;
  /**
   * Paths from a writable root down to a trusted project inside it, each bound onto itself
   * (parents first) so a command cannot rename the project away and create a new one with
   * its own `.agentd` in its place: a mount point cannot be renamed or removed.
   */
  pinned?: string[];
  /**
   * `.git` and `.agentd` of writable roots, and `.agentd` of every trusted project inside
   * one; `exists: false` ones become empty read-only mounts.
   */
  protected: Array<{ path: string; exists: boolean }>;
  /** Hidden after everything else is bound: directories get an empty tmpfs, files /dev/null. */
  hidden: Array<{ path: string; kind: 'dir' | 'file' }>;
  /** Bound read-only last, even inside a hidden directory (the session's tool-output folder). */
  readOnly: string[];
}

export interface ResolveMountsInput {
  hidden: readonly HiddenPath[];
  /** Real paths of the roots, the first being the working directory. */
  roots: Array<{ dir: string; writable: boolean }>;
  readOnly?: readonly string[];
  /**
   * The user's trustedProjects. A trusted project inside a writable root (the home folder
   * holding your trusted checkouts, or a monorepo with a trusted package) gets its
   * `.agentd` kept read-only too: a command must not plant config that a later session
   * there would run with the project's trust (its MCP servers, hooks and allow rules).
   */
  trustedProjects?: readonly string[];
  /** The resolv.conf to keep readable when its target lies in a socket dir; /etc/resolv.conf by default. */
  resolvConf?: string;
}

/** A root lies inside a hidden path: the sandbox would hide the workspace itself. */
export class SandboxRefusedError extends ToolError {
  constructor(root: string, hidden: HiddenPath, real: string) {
    const what: Record<HiddenPath['reason'], string> = {
      agentd: "agentd's own files",
      runtime: 'the runtime directory ($XDG_RUNTIME_DIR)',
      socket: 'the ssh-agent socket',
      credential: 'credential files',
      denyRead: 'sandbox.denyRead in config.json',
    };
    super(
      `The sandbox refuses to run here: ${root} lies inside ${real}, which it hides (${what[hidden.reason]}). ` +
        `Open the session in a project directory outside ${real}` +
        (hidden.reason === 'denyRead' ? `, or remove "${hidden.path}" from sandbox.denyRead.` : '.'),
    );
    this.name = 'SandboxRefusedError';
  }
}

/**
 * Turns the policy's hidden paths into mounts for this call: symlinks resolved (bwrap
 * mounts onto real paths), missing paths skipped, nested ones folded into their parent,
 * and paths already out of sight (under the private /tmp or an emptied socket dir, and
 * in no bound root) dropped. Throws SandboxRefusedError when a root is inside a hidden path.
 */
export function resolveSandboxMounts(input: ResolveMountsInput): SandboxMounts {
  const roots = [...input.roots].sort((a, b) => depth(a.dir) - depth(b.dir));
  const readOnly = [...(input.readOnly ?? [])];
  const systemHidden = outermost(input.hidden.filter((h) => h.layer === 'system').flatMap((h) => realDir(h.path)));
  const bound = [...roots.map((r) => r.dir), ...readOnly];
  const visible = (p: string): boolean =>
    bound.some((b) => isInside(p, b)) || (!isInside(p, '/tmp') && !systemHidden.some((dir) => isInside(p, dir)));

  const strict: Array<{ real: string; kind: 'dir' | 'file'; entry: HiddenPath }> = [];
  for (const entry of input.hidden.filter((h) => h.layer === 'strict')) {
    const real = realPath(entry.path);
    if (real === undefined) continue;
    for (const root of roots) if (isInside(root.dir, real)) throw new SandboxRefusedError(root.dir, entry, real);
    strict.push({ real, kind: isDir(real) ? 'dir' : 'file', entry });
  }
  const dirs = outermost(strict.filter((s) => s.kind === 'dir').map((s) => s.real));
  const hidden = [
    ...dirs.map((p) => ({ path: p, kind: 'dir' as const })),
    ...unique(strict.filter((s) => s.kind === 'file' && !dirs.some((d) => isInside(s.real, d))).map((s) => s.real)).map((p) => ({ path: p, kind: 'file' as const })),
  ].filter((h) => visible(h.path));

  const resolv = realPath(input.resolvConf ?? '/etc/resolv.conf');
  const reveal = resolv !== undefined && !isDir(resolv) && systemHidden.some((dir) => isInside(resolv, dir)) ? [resolv] : [];

  return { systemHidden, reveal, roots, ...protectedEntries(roots, input.trustedProjects ?? []), hidden, readOnly };
}

/** `.git` and `.agentd` of every writable root, and what keeps trusted projects inside them intact. */
function protectedEntries(roots: SandboxMounts['roots'], trustedProjects: readonly string[]): Pick<SandboxMounts, 'protected' | 'pinned'> {
  const writable = roots.filter((r) => r.writable).map((r) => r.dir);
  const out: SandboxMounts['protected'] = [];
  const pinned: string[] = [];
  for (const root of writable) for (const name of PROTECTED_NAMES) protect(path.join(root, name), name, writable, out);
  for (const project of unique(trustedProjects.map(realpathLoose))) {
    const root = writable.filter((w) => w !== project && isInside(project, w)).sort((a, b) => depth(b) - depth(a))[0];
    if (root === undefined || writable.includes(project)) continue;
    // Every step down is pinned; the first that does not exist becomes an empty read-only
    // mount, so a trusted project that is not there (yet) cannot be created by a command.
    let dir = root;
    let complete = true;
    for (const part of path.relative(root, project).split(path.sep)) {
      dir = path.join(dir, part);
      const stat = lstatSync(dir, { throwIfNoEntry: false });
      if (stat === undefined) {
        out.push({ path: dir, exists: false });
        complete = false;
        break;
      }
      if (!pinned.includes(dir)) pinned.push(dir);
      if (!stat.isDirectory()) {
        complete = false;
        break;
      }
    }
    if (complete) protect(path.join(project, '.agentd'), '.agentd', writable, out);
  }
  return { protected: out, pinned };
}

/** The real path of `p`'s longest existing prefix with the rest appended (a trusted project may not exist yet). */
function realpathLoose(p: string): string {
  const real = realPath(p);
  if (real !== undefined) return real;
  const parent = path.dirname(p);
  return parent === p ? p : path.join(realpathLoose(parent), path.basename(p));
}

function protect(entry: string, name: string, writable: string[], out: SandboxMounts['protected']): void {
  const real = realPath(entry);
  if (real !== undefined) {
    // A `.git` symlink or file pointing outside every writable root is read-only already.
    if (writable.some((w) => isInside(real, w)) && !out.some((o) => o.path === real)) out.push({ path: real, exists: true });
  } else if (lstatSync(entry, { throwIfNoEntry: false }) === undefined) {
    out.push({ path: entry, exists: false });
  } else {
    // A dangling symlink: a command could create its target and fill it with a git
    // config or project settings; bwrap cannot mount on it either.
    throw new ToolError(
      `The sandbox refuses to run here: ${entry} is a symbolic link to a missing target, so a command could create ` +
        `a ${name} there. Remove the link (rm ${entry}) or create its target, then try again.`,
    );
  }
}

function realPath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function realDir(p: string): string[] {
  const real = realPath(p);
  return real !== undefined && isDir(real) ? [real] : [];
}

function isDir(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The paths not inside another one of the list, deduplicated. */
function outermost(paths: string[]): string[] {
  const list = unique(paths);
  return list.filter((p) => !list.some((other) => other !== p && isInside(p, other)));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

function depth(dir: string): number {
  return dir.split('/').filter(Boolean).length;
}
