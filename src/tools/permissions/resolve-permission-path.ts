import path from 'node:path';
import { realpathLoose, resolveArgPath } from '../access/path-confinement.js';
import { permissionTarget } from './permission-target.js';

/** A path argument in both spellings: as the call wrote it, and where it really leads. */
export interface PermissionPath {
  /** Absolute, lexically normalised (`~` expanded, `..` folded), symlinks not followed. */
  written: string;
  /** Symlinks of the longest existing prefix resolved, as the tools resolve them. */
  real: string;
}

/**
 * The target path of a file tool's call in both spellings, or undefined for calls
 * without a path (bash, web_fetch, MCP) or with an unusable one (the tool reports that).
 * Relative paths are relative to `cwd`.
 */
export async function resolvePermissionPath(tool: string, args: Record<string, unknown>, cwd: string): Promise<PermissionPath | undefined> {
  const target = permissionTarget(tool, args);
  if (target?.kind !== 'path') return undefined;
  try {
    const written = resolveArgPath(target.value, cwd);
    return { written, real: await realpathLoose(written) };
  } catch {
    return undefined;
  }
}

/** The session's directories with their symlinks resolved, as the tools compare against them. */
export async function realRoots(cwd: string, additionalDirectories: readonly string[]): Promise<{ cwd: string; additional: string[] }> {
  const [realCwd, ...additional] = await Promise.all([cwd, ...additionalDirectories].map((dir) => realpathLoose(path.resolve(dir))));
  return { cwd: realCwd ?? cwd, additional };
}
