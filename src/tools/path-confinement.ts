import { lstat, readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isInside } from './is-inside.js';
import type { Access } from './permission-gate.js';
import type { ToolContext, ToolLocation } from './tool.js';
import { ToolError } from './tool-error.js';

/** Symlink hops allowed while resolving one path (Linux `MAXSYMLINKS` is 40). */
const MAX_SYMLINK_HOPS = 40;

/**
 * `fs.realpath` for paths that may not exist yet: the nearest existing ancestor is
 * resolved and the rest appended. A dangling symlink is followed to where a write would
 * land, so `link -> /etc/new-file` cannot be used to create files outside the workspace.
 */
export async function realpathLoose(absolutePath: string, hops = 0): Promise<string> {
  if (hops > MAX_SYMLINK_HOPS) throw new ToolError(`Too many levels of symbolic links resolving ${absolutePath}.`);
  try {
    return await realpath(absolutePath);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const link = await lstat(absolutePath).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(absolutePath), await readlink(absolutePath));
    return realpathLoose(target, hops + 1);
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  return path.join(await realpathLoose(parent, hops), path.basename(absolutePath));
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export { isInside } from './is-inside.js';

/** Absolute, lexically normalised form of a path argument: `~/` is the home directory. */
export function resolveArgPath(rawPath: string, cwd: string): string {
  if (rawPath.includes('\0')) throw new ToolError('The path contains a NUL byte; pass a plain file path.');
  if (rawPath.trim() === '') throw new ToolError('The path is empty; pass a file path relative to the workspace or absolute.');
  return path.resolve(cwd, expandHome(rawPath));
}

/** `~` and `~/…` as the user's home, the way the tools (and a shell) read them. */
export function expandHome(rawPath: string): string {
  return rawPath === '~' || rawPath.startsWith('~/') ? path.join(homedir(), rawPath.slice(1)) : rawPath;
}

/**
 * The follow-along location of a path argument, for `Tool.locations`; empty when the
 * argument is unusable (the call itself then reports the problem).
 */
export function argLocation(rawPath: string, cwd: string, line?: number): ToolLocation[] {
  try {
    const location: ToolLocation = { path: resolveArgPath(rawPath, cwd) };
    if (line !== undefined) location.line = line;
    return [location];
  } catch {
    return [];
  }
}

/** The session's workspace roots (cwd and additional directories), symlinks resolved. */
export async function workspaceRoots(ctx: Pick<ToolContext, 'cwd' | 'additionalDirectories'>): Promise<string[]> {
  return Promise.all([ctx.cwd, ...ctx.additionalDirectories].map((dir) => realpathLoose(path.resolve(dir))));
}

/** Which tool call is asking, for the permission prompt. */
export interface ConfinementRequest {
  tool: string;
  access: Access;
  args: Record<string, unknown>;
}

/**
 * Resolves a path argument to the real path the tool must operate on, and enforces the
 * workspace boundary: a path outside cwd and the additional directories (after `..` and
 * symlinks are resolved) needs the permission gate's consent, or the call is refused. A
 * write inside the workspace is confirmed with the gate (`confirmTarget`) at this moment,
 * so the approval covers the file really written.
 */
export async function resolveConfinedPath(
  ctx: Pick<ToolContext, 'cwd' | 'additionalDirectories' | 'permission'>,
  rawPath: string,
  request: ConfinementRequest,
): Promise<string> {
  const real = await realpathLoose(resolveArgPath(rawPath, ctx.cwd));
  const roots = await workspaceRoots(ctx);
  if (roots.some((root) => isInside(real, root))) {
    if (request.access !== 'write' || !ctx.permission.confirmTarget) return real;
    const confirmed = await ctx.permission.confirmTarget({ tool: request.tool, access: request.access, args: request.args, paths: [real] });
    if (confirmed === 'allow') return real;
    throw new ToolError(
      `Permission denied: ${request.tool} was not allowed to write ${real} (the path now leads somewhere other than what was approved, ` +
        'or it is protected). Ask the user, or write another file.',
    );
  }
  const verb = request.access === 'write' ? 'write to' : 'read';
  const answer = await ctx.permission.check({
    tool: request.tool,
    access: request.access,
    args: request.args,
    reason: `${request.tool} wants to ${verb} ${real}, which is outside the workspace (${roots.join(', ')}).`,
    paths: [real],
  });
  if (answer === 'allow') return real;
  throw new ToolError(
    `Permission denied: ${real} is outside the workspace (${roots.join(', ')}) and the user did not allow access. ` +
      'Work with files inside the workspace, or ask the user to add the directory to the session.',
  );
}
