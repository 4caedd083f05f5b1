import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { hiddenWithin, toolAccessPolicy } from '../access/access-policy.js';
import { isInside } from '../access/is-inside.js';
import { workspaceRoots } from '../access/path-confinement.js';
import type { ToolContext } from '../tool.js';

/** Names of skipped paths shown in a tool result at most. */
const MAX_NAMED = 10;

/** What a search or listing of one directory must leave out: the hidden paths inside it. */
export interface SearchExclusions {
  /** The skipped paths (absolute; as configured and symlinks resolved). */
  paths: string[];
  /**
   * rg flags skipping them, as `--glob '!/rel'` anchored at `rgCwd`: rg matches globs
   * relative to its working directory, and a later glob wins over an earlier one, so
   * these go after every other `--glob` (`**` or `.ssh/*` would otherwise bring hidden
   * files back in). rg never follows symlinks while walking (no `--follow` is passed).
   */
  rgFlags: string[];
  /** True for a path (absolute, or relative to the searched directory) inside a skipped one; filters what rg printed, in case a glob let it through. */
  skips(p: string): boolean;
  /** The result's note naming the skipped paths that exist, or undefined when none does. */
  note: string | undefined;
}

/**
 * The exclusions for searching or listing `dir` (a real path): the paths the sandbox
 * hides from bash that lie inside it (the home folder as workspace holds `.ssh`, `.aws`
 * and agentd's own folders), so neither entries, names inside nor matches from them come
 * back. `rgCwd` is the working directory rg will run in; it must hold `dir`.
 */
export async function searchExclusions(
  ctx: Pick<ToolContext, 'cwd' | 'additionalDirectories' | 'settings' | 'env' | 'dataDir' | 'sessionId'>,
  dir: string,
  rgCwd = dir,
): Promise<SearchExclusions> {
  const paths = await hiddenWithin(toolAccessPolicy(ctx), dir, await workspaceRoots(ctx));
  const rgFlags = paths.filter((p) => isInside(p, rgCwd)).flatMap((p) => ['--glob', `!/${escapeGlob(path.relative(rgCwd, p))}`]);
  const existing = (await Promise.all(paths.map(async (p) => ((await lstat(p).catch(() => undefined)) ? [p] : [])))).flat();
  const skips = (p: string): boolean => {
    const absolute = path.resolve(dir, p);
    return paths.some((hidden) => isInside(absolute, hidden));
  };
  return { paths, rgFlags, skips, note: describeSkipped(existing, dir) };
}

function describeSkipped(existing: string[], dir: string): string | undefined {
  if (existing.length === 0) return undefined;
  // Only the outermost: `.config/agentd` rather than it and its `config.json` too.
  const outermost = existing.filter((p) => !existing.some((other) => other !== p && isInside(p, other)));
  const names = [...new Set(outermost.map((p) => path.relative(dir, p)))].sort();
  const shown = names.length > MAX_NAMED ? [...names.slice(0, MAX_NAMED), `and ${names.length - MAX_NAMED} more`] : names;
  const count = names.length === 1 ? 'a path' : `${names.length} paths`;
  return (
    `[Not searched or listed inside ${shown.join(', ')}: ${count} the sandbox hides from bash ` +
    "(credentials, agentd's own files, sandbox.denyRead). Reading inside them asks the user.]"
  );
}

/** A path as a literal rg glob: `*?[]{}\` escaped (rg's globs take backslash escapes on Unix). */
function escapeGlob(relative: string): string {
  return relative.replace(/[*?[\]{}\\]/g, (c) => `\\${c}`);
}
