import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RgMatchCollector } from '../search/collect-rg-matches.js';
import { displayPath } from '../access/display-path.js';
import { nameTypeFilterFlags } from '../search/name-type-filter.js';
import { isInside, resolveConfinedPath, workspaceRoots } from '../access/path-confinement.js';
import { plural } from '../plural.js';
import { NewestFirst } from '../search/newest-first.js';
import { requireSearchable } from '../files/open-regular-file.js';
import { ripgrepPathKey, runRipgrep } from '../search/run-ripgrep.js';
import { searchExclusions } from '../search/search-exclusions.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';

/** Most matches (content), files (files) or counts (count) returned by one call. */
export const GREP_MAX_RESULTS = 250;

export const grepSchema = z
  .object({
    pattern: z.string().min(1).describe('Regular expression (Rust regex syntax, as ripgrep).'),
    path: z.string().optional().describe('File or directory to search (default: the working directory).'),
    glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.py".'),
    caseInsensitive: z.boolean().optional().describe('Ignore case.'),
    context: z.number().int().min(0).max(20).optional().describe('Lines of context around each match (content mode).'),
    mode: z
      .enum(['content', 'files', 'count'])
      .optional()
      .describe('content: matching lines (default); files: paths of matching files, newest first; count: matches per file.'),
    multiline: z.boolean().optional().describe('Let the pattern span lines (`.` also matches newline).'),
  })
  .strict();

export type GrepArgs = z.infer<typeof grepSchema>;

export const grepTool: Tool<GrepArgs> = {
  name: 'grep',
  description:
    `Search file contents with ripgrep. At most ${GREP_MAX_RESULTS} results per call (the total is reported). ` +
    'Files ignored by .gitignore, hidden files and binary files are skipped.',
  inputSchema: grepSchema,
  kind: 'search',
  access: 'search',
  title: (args) => `Search for "${args.pattern}"${args.path ? ` in ${args.path}` : ''}`,
  async execute(args, ctx) {
    try {
      const target = await resolveConfinedPath(ctx, args.path ?? '.', { tool: 'grep', access: 'search', args });
      const info = await stat(target).catch(() => undefined);
      if (!info) throw new ToolError(`${displayPath(target, ctx.cwd)} does not exist.`);
      await requireSearchable(target, displayPath(target, ctx.cwd));
      // rg matches globs relative to its working directory: the session's (the model's
      // `glob` means that), or the searched directory when that lies outside it.
      const [realCwd = ctx.cwd] = await workspaceRoots(ctx);
      const rgCwd = isInside(target, realCwd) ? realCwd : info.isDirectory() ? target : path.dirname(target);
      const excluded = await searchExclusions(ctx, target, rgCwd);
      const mode = args.mode ?? 'content';
      const flags: string[] = [];
      if (args.caseInsensitive) flags.push('--ignore-case');
      if (args.multiline) flags.push('--multiline', '--multiline-dotall');
      if (args.glob) flags.push(...globFlags(args.glob));
      // After the model's glob: a later glob wins in rg, so `**` cannot bring hidden paths back.
      flags.push(...excluded.rgFlags);
      const show = (p: string): string => displayPath(path.resolve(ctx.cwd, p), ctx.cwd);
      const where = displayPath(target, ctx.cwd);
      const options = { cwd: rgCwd, signal: ctx.signal, env: ctx.env };
      const note = excluded.note ? `\n${excluded.note}` : '';
      const tail = ['-e', args.pattern, '--', target];

      if (mode === 'content') {
        const context = args.context ?? 0;
        const collector = new RgMatchCollector(GREP_MAX_RESULTS, context, show, excluded.skips);
        const contextFlags = context > 0 ? ['--context', String(context)] : [];
        // No `--sort path`: it makes rg single-threaded; the collector sorts by path itself.
        const exit = await runRipgrep(['--json', ...contextFlags, ...flags, ...tail], options, (line) => collector.push(line));
        failOnError(exit, collector.total);
        if (collector.total === 0) return textResult(`No matches for ${args.pattern} in ${where}.${note}`);
        return summarise(collector.text(), collector.shownCount, collector.total, 'match', 'matches', note);
      }

      // rg lists in parallel, unsorted (`--sortr modified` / `--sort path` would make it
      // single-threaded); the order is applied here, over every file, before the cap.
      const lines: string[] = [];
      const newest = new NewestFirst(ctx.cwd, GREP_MAX_RESULTS);
      let total = 0;
      const modeFlags = mode === 'files' ? ['--files-with-matches'] : ['--count-matches', '--with-filename'];
      const exit = await runRipgrep([...modeFlags, ...flags, ...tail], options, (line) => {
        if (excluded.skips(mode === 'files' ? line : countPath(line))) return;
        total += 1;
        if (mode === 'files') newest.add(line);
        else lines.push(line);
      });
      failOnError(exit, total);
      if (total === 0) return textResult(`No matches for ${args.pattern} in ${where}.${note}`);
      const entries = mode === 'files' ? newest.paths().map(show) : firstCountsByPath(lines, GREP_MAX_RESULTS, show);
      return summarise(entries.join('\n'), entries.length, total, 'file', 'files', note);
    } catch (error) {
      return errorResult(error);
    }
  },
};

/**
 * rg's `--glob` overrides .gitignore for what it matches (`*` would search build/), so a
 * name-only glob becomes a file type (nameTypeFilterFlags), which filters without overriding
 * ignore rules; a glob with a directory part still needs `--glob`.
 */
function globFlags(glob: string): string[] {
  if (glob.includes('/')) return ['--glob', glob];
  return nameTypeFilterFlags(glob);
}

/** The path of one of rg's `path:count` lines (the count is after the last colon; paths may contain colons). */
function countPath(line: string): string {
  const colon = line.lastIndexOf(':');
  return colon > 0 ? line.slice(0, colon) : line;
}

/** rg's `path:count` lines, the first `cap` by path, with paths as the model sees them. */
function firstCountsByPath(lines: string[], cap: number, show: (rgPath: string) => string): string[] {
  const entries = lines.map((line) => {
    // The count is after the last colon (paths may contain colons).
    const colon = line.lastIndexOf(':');
    const file = colon > 0 ? line.slice(0, colon) : line;
    return { file, key: ripgrepPathKey(file), line, colon };
  });
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return entries.slice(0, cap).map(({ file, line, colon }) => (colon > 0 ? `${show(file)}:${line.slice(colon + 1)}` : line));
}

function failOnError(exit: { exitCode: number; stderr: string }, found: number): void {
  if (exit.exitCode === 2 && found === 0) throw new ToolError(`grep failed: ${exit.stderr || 'ripgrep exited with status 2'}`);
}

function summarise(text: string, shown: number, total: number, one: string, many: string, note: string): ReturnType<typeof textResult> {
  if (shown >= total) return textResult(`${text}\n\n[${plural(total, one, many)}]${note}`);
  return textResult(`${text}\n\n[Showing ${shown} of ${plural(total, one, many)}; narrow the pattern, path or glob to see the rest.]${note}`, {
    truncated: true,
  });
}
