import { createRequire } from 'node:module';
import path from 'node:path';
import { displayPath } from '../access/display-path.js';

const require = createRequire(import.meta.url);
let diff: typeof import('diff') | undefined;

/** Diff text beyond this many characters is cut in the model's view; the client gets details.diff whole. */
const MAX_DIFF_CHARS = 20_000;

/**
 * A unified diff (`diff -u` style, via the `diff` package) of one file's change,
 * labelled with the path relative to cwd; `oldText` null means the file is new.
 */
export function unifiedDiff(absolutePath: string, cwd: string, oldText: string | null, newText: string): string {
  const shown = displayPath(absolutePath, cwd);
  const label = shown === '.' ? path.basename(absolutePath) : shown;
  // Loaded on the first edit or write: its 19 modules are not needed to start the daemon.
  diff ??= require('diff') as typeof import('diff');
  const patch = diff.createTwoFilesPatch(
    oldText === null ? '/dev/null' : `a/${label}`,
    `b/${label}`,
    oldText ?? '',
    newText,
    undefined,
    undefined,
    { context: 3 },
  );
  // Drop the `Index:`/`===` preamble createTwoFilesPatch adds; keep from the `---` line.
  const body = patch.slice(patch.indexOf('--- '));
  if (body.length <= MAX_DIFF_CHARS) return body;
  return `${body.slice(0, MAX_DIFF_CHARS)}\n… [diff cut at ${MAX_DIFF_CHARS} characters]`;
}
