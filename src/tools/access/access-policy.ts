import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside } from './is-inside.js';
import type { Access } from '../permission-gate.js';
import type { HiddenPath } from '../sandbox/hidden-paths.js';
import { defaultSandboxPolicy, type SandboxPolicy } from '../sandbox/sandbox-policy.js';
import { toolOutputDir } from '../shell/tool-output-dir.js';
import type { ToolContext } from '../tool.js';

/**
 * What agentd's own file tools (read, write, edit, ls, grep, glob), the permission
 * questions' previews and the MCP roots may not touch without the user's say: exactly
 * the paths the sandbox hides from bash, so what bash cannot see, read cannot either.
 */
export interface AccessPolicy {
  /** The sandbox's hidden paths (SandboxPolicy.hidden) plus the data directory the session uses. */
  hidden: readonly HiddenPath[];
  /** Readable, never writable, although inside a hidden path: the session's own tool-output folder, as the sandbox binds it. */
  readable: readonly string[];
}

/** The access policy of one session, from its project's sandbox policy. */
export function accessPolicy(sandbox: SandboxPolicy, dataDir: string, sessionId: string): AccessPolicy {
  // The data dir the session uses is hidden even when the policy was built for another (bash does the same).
  const dataHidden: HiddenPath = { path: path.resolve(dataDir), reason: 'agentd', layer: 'strict' };
  return { hidden: [...sandbox.hidden, dataHidden], readable: [toolOutputDir(dataDir, sessionId)] };
}

/** The access policy a tool call runs under: its session's, or a daemon's on its environment when the call has none. */
export function toolAccessPolicy(ctx: Pick<ToolContext, 'settings' | 'env' | 'dataDir' | 'sessionId'>): AccessPolicy {
  return accessPolicy(ctx.settings?.sandboxPolicy ?? defaultSandboxPolicy(ctx.env ?? process.env), ctx.dataDir, ctx.sessionId);
}

/** Symlink hops followed while resolving one hidden path (Linux `MAXSYMLINKS` is 40). */
const MAX_SYMLINK_HOPS = 40;

/** A target that lies in a hidden path. */
export interface SensitiveHit {
  /** The spelling of the target found inside it. */
  target: string;
  /** The hidden path, as configured. */
  hidden: HiddenPath;
  /** Why, as one sentence for a permission question or a refusal. */
  reason: string;
}

/** A hidden path in both spellings: as configured and with its own symlinks resolved (the sandbox hides the real one). */
interface ResolvedHidden {
  entry: HiddenPath;
  spellings: string[];
}

/**
 * Both spellings of each path: as configured, and with symlinks resolved as far as the
 * path exists (a missing `.ssh` under a home that is itself a link still gets its real
 * spelling), a dangling link followed. Synchronous with one memo for the whole list:
 * the ~45 paths share their parents, which makes it ~1 ms where the async walk took ~12.
 * Only lstat, readlink and realpath run, so no FIFO or device can block them.
 */
function resolveHidden(paths: readonly string[]): string[][] {
  const memo = new Map<string, string>();
  return paths.map((p) => {
    const configured = path.resolve(p);
    const real = realSpelling(configured, memo, 0);
    return real === configured ? [configured] : [configured, real];
  });
}

function realSpelling(p: string, memo: Map<string, string>, hops: number): string {
  const known = memo.get(p);
  if (known !== undefined) return known;
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    const parent = path.dirname(p);
    const target = hops < MAX_SYMLINK_HOPS ? linkTarget(p) : undefined;
    if (target !== undefined) real = realSpelling(path.resolve(parent, target), memo, hops + 1);
    else real = parent === p ? p : path.join(realSpelling(parent, memo, hops), path.basename(p));
  }
  memo.set(p, real);
  return real;
}

/** Where a (dangling) symlink points, or undefined when `p` is not a link (or vanished). */
function linkTarget(p: string): string | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}

function resolvePolicy(policy: AccessPolicy): { hidden: ResolvedHidden[]; readable: string[] } {
  const hidden = resolveHidden(policy.hidden.map((h) => h.path));
  return { hidden: policy.hidden.map((entry, i) => ({ entry, spellings: hidden[i]! })), readable: resolveHidden(policy.readable).flat() };
}

/**
 * A host socket directory (/run) is emptied before the workspace is bound in the
 * sandbox, so a workspace below it (/run/media/…) stays visible; every other hidden path
 * is hidden wherever it lies, inside the workspace too.
 */
function appliesTo(entry: HiddenPath, p: string, roots: readonly string[]): boolean {
  return entry.layer === 'strict' || !roots.some((root) => isInside(p, root));
}

/**
 * Whether any spelling of one target (as written, symlinks resolved) lies in a hidden
 * path, and which. `roots` are the session's directories with symlinks resolved.
 * Reading the session's own tool-output folder is not sensitive; writing it is.
 */
export async function findSensitive(
  policy: AccessPolicy,
  spellings: readonly string[],
  roots: readonly string[],
  access: Access,
): Promise<SensitiveHit | undefined> {
  const { hidden, readable } = resolvePolicy(policy);
  const reads = access === 'read' || access === 'search';
  for (const target of new Set(spellings.map((s) => path.resolve(s)))) {
    if (reads && readable.some((dir) => isInside(target, dir))) continue;
    for (const { entry, spellings: at } of hidden) {
      if (!at.some((h) => isInside(target, h)) || !appliesTo(entry, target, roots)) continue;
      return { target, hidden: entry, reason: sensitiveReason(target, entry, access) };
    }
  }
  return undefined;
}

/**
 * The hidden paths strictly inside `dir` (a real directory being searched or listed),
 * in both spellings, which a search must skip. One inside a hidden path that also holds
 * `dir` is not skipped: the user's consent to `dir` covered it.
 */
export async function hiddenWithin(policy: AccessPolicy, dir: string, roots: readonly string[]): Promise<string[]> {
  const { hidden } = resolvePolicy(policy);
  // Only a hidden path that applies to `dir` was asked about (a workspace below /run was not).
  const covering = hidden.filter(({ entry }) => appliesTo(entry, dir, roots)).flatMap(({ spellings }) => spellings.filter((h) => isInside(dir, h)));
  const skipped = new Set<string>();
  for (const { entry, spellings } of hidden) {
    for (const h of spellings) {
      if (h === dir || !isInside(h, dir) || !appliesTo(entry, h, roots)) continue;
      if (covering.some((c) => isInside(h, c))) continue;
      skipped.add(h);
    }
  }
  return [...skipped];
}

function sensitiveReason(target: string, entry: HiddenPath, access: Access): string {
  const where = tildePath(entry.path);
  const what: Record<HiddenPath['reason'], string> = {
    agentd: `agentd's own files (${where}: its config with API keys, MCP servers and hooks, the sessions, remembered permissions, socket and token)`,
    runtime: `the runtime directory $XDG_RUNTIME_DIR (${where})`,
    socket: entry.layer === 'system' ? `a host socket directory (${where})` : `the ssh-agent socket (${where})`,
    credential: `a credential path (${where})`,
    denyRead: `a path in sandbox.denyRead (${where})`,
  };
  const danger = access === 'write' && entry.reason === 'agentd' ? '; a change there can start programs outside the sandbox or grant permissions' : '';
  return (
    `${target} is inside ${what[entry.reason]}, which the sandbox hides from bash${danger}; ` +
    "agentd's tools read or change it only when the user allows it, each time"
  );
}

/** `~/…` for a path in the home directory, else the path. */
function tildePath(p: string): string {
  const home = os.homedir();
  if (p === home) return '~';
  return isInside(p, home) ? `~/${path.relative(home, p)}` : p;
}
