import path from 'node:path';

/**
 * True when `child` is `parent` or below it (both absolute). A name that merely starts
 * with two dots (`..b`) is inside; only `..` as a whole first segment leaves the parent.
 */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
