import { homedir } from 'node:os';
import path from 'node:path';
import { findSensitive, toolAccessPolicy } from './access-policy.js';
import { isInside } from './is-inside.js';
import { realpathLoose } from './realpath-loose.js';
import type { Access } from '../permission-gate.js';
import type { ToolContext, ToolLocation } from '../tool.js';
import { ToolError } from '../tool-error.js';

export { isInside } from './is-inside.js';
export { realpathLoose } from './realpath-loose.js';

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
 * workspace boundary and the access policy: a path outside cwd and the additional
 * directories (after `..` and symlinks are resolved), or one the sandbox hides from bash
 * (credentials, agentd's own files, `sandbox.denyRead`; inside the workspace too), needs
 * the permission gate's consent, or the call is refused. A write inside the workspace is
 * confirmed with the gate (`confirmTarget`) at this moment, so the approval covers the
 * file really written. The session's gate passes a call approved for exactly this path.
 */
export async function resolveConfinedPath(
  ctx: Pick<ToolContext, 'cwd' | 'additionalDirectories' | 'permission' | 'settings' | 'env' | 'dataDir' | 'sessionId'>,
  rawPath: string,
  request: ConfinementRequest,
): Promise<string> {
  const written = resolveArgPath(rawPath, ctx.cwd);
  const real = await realpathLoose(written);
  const roots = await workspaceRoots(ctx);
  const verb = request.access === 'write' ? 'write to' : 'read';
  const sensitive = await findSensitive(toolAccessPolicy(ctx), [written, real], roots, request.access);
  if (sensitive) {
    const answer = await ctx.permission.check({
      tool: request.tool,
      access: request.access,
      args: request.args,
      reason: `${request.tool} wants to ${verb} ${real}: ${sensitive.reason}.`,
      paths: [real],
    });
    if (answer === 'allow') return real;
    throw new ToolError(
      `Permission denied: ${sensitive.reason}, and the user did not allow it for this call. ` +
        'Work with other files, or ask the user to look at it themselves.',
    );
  }
  if (roots.some((root) => isInside(real, root))) {
    if (request.access !== 'write' || !ctx.permission.confirmTarget) return real;
    const confirmed = await ctx.permission.confirmTarget({ tool: request.tool, access: request.access, args: request.args, paths: [real] });
    if (confirmed === 'allow') return real;
    throw new ToolError(
      `Permission denied: ${request.tool} was not allowed to write ${real} (the path now leads somewhere other than what was approved, ` +
        'or it is protected). Ask the user, or write another file.',
    );
  }
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
