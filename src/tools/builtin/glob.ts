import path from 'node:path';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { displayPath } from '../access/display-path.js';
import { globMatcher } from '../search/compile-glob.js';
import { isHiddenPath, nameTypeFilterFlags } from '../search/name-type-filter.js';
import { resolveConfinedPath } from '../access/path-confinement.js';
import { plural } from '../plural.js';
import { NewestFirst } from '../search/newest-first.js';
import { runRipgrep } from '../search/run-ripgrep.js';
import { searchExclusions } from '../search/search-exclusions.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';

/** Most paths returned by one call. */
export const GLOB_MAX_RESULTS = 100;

export const globSchema = z
  .object({
    // Matching takes time in proportion to the pattern's length times each path's.
    pattern: z
      .string()
      .min(1)
      .max(1024, 'a glob pattern may be at most 1024 characters; search with a shorter one')
      .describe('Glob such as "**/*.ts" or "src/*.json" (gitignore-style: "*.ts" matches at any depth).'),
    path: z.string().optional().describe('Directory to search in (default: the working directory).'),
  })
  .strict();

export type GlobArgs = z.infer<typeof globSchema>;

export const globTool: Tool<GlobArgs> = {
  name: 'glob',
  description:
    `Find files by name pattern, newest first, at most ${GLOB_MAX_RESULTS} paths (the total is reported). ` +
    'Files ignored by .gitignore are skipped.',
  inputSchema: globSchema,
  kind: 'search',
  access: 'search',
  title: (args) => `Find ${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
  async execute(args, ctx) {
    try {
      const dir = await resolveConfinedPath(ctx, args.path ?? '.', { tool: 'glob', access: 'search', args });
      const info = await stat(dir).catch(() => undefined);
      if (!info?.isDirectory()) throw new ToolError(`${displayPath(dir, ctx.cwd)} is not a directory; give a directory to search in.`);
      const matches = globMatcher(args.pattern);
      const excluded = await searchExclusions(ctx, dir);
      const note = excluded.note ? `\n${excluded.note}` : '';
      const newest = new NewestFirst(dir, GLOB_MAX_RESULTS);
      let total = 0;
      // rg lists the files it would search (honouring .gitignore, skipping hidden files),
      // in parallel; the glob is applied here, because rg's own `--glob` overrides ignore
      // rules for whatever it matches (`**/*` would list build/), and so is the order:
      // `--sortr modified` would make rg single-threaded and, in rg 13, very slow.
      const flags = ['--files', ...nameFilterFlags(args.pattern), ...excluded.rgFlags];
      const exit = await runRipgrep(flags, { cwd: dir, signal: ctx.signal, env: ctx.env }, (line) => {
        // rg lists hidden files its name prefilter matches; dropped here (cheaper than rg's `!.*`).
        if (!matches(line) || isHiddenPath(line) || excluded.skips(line)) return;
        total += 1;
        newest.add(line);
      });
      if (exit.exitCode === 2 && total === 0) throw new ToolError(`glob failed: ${exit.stderr}`);
      if (total === 0) return textResult(`No files match ${args.pattern} in ${displayPath(dir, ctx.cwd)}.${note}`);
      const found = newest.paths().map((file) => displayPath(path.join(dir, file), ctx.cwd));
      if (total <= found.length) return textResult(`${found.join('\n')}\n\n[${plural(total, 'file')}, newest first]${note}`);
      return textResult(
        `${found.join('\n')}\n\n[Showing ${found.length} of ${total} files, newest first; narrow the pattern to see the rest.]${note}`,
        { truncated: true },
      );
    } catch (error) {
      return errorResult(error);
    }
  },
};


/**
 * A file-name prefilter for rg, so it prints only candidates: the glob's last segment as
 * a file type (nameTypeFilterFlags), which, unlike `--glob`, filters without overriding
 * ignore rules. Only for plain segments (letters, digits, `.`, `_`, `-`, `*`, `?`), whose meaning
 * is the same in rg's globs and in compileGlob; the full glob is still applied here.
 */
function nameFilterFlags(glob: string): string[] {
  const last = glob.slice(glob.lastIndexOf('/') + 1);
  if (!/^[\w.*?-]+$/.test(last) || last.includes('**') || last === '*') return [];
  return nameTypeFilterFlags(last, { dropHidden: false });
}
