import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RgMatchCollector } from '../collect-rg-matches.js';
import { displayPath } from '../display-path.js';
import { resolveConfinedPath } from '../path-confinement.js';
import { plural } from '../plural.js';
import { runRipgrep } from '../run-ripgrep.js';
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
      if (!(await stat(target).catch(() => undefined))) throw new ToolError(`${displayPath(target, ctx.cwd)} does not exist.`);
      const mode = args.mode ?? 'content';
      const flags: string[] = [];
      if (args.caseInsensitive) flags.push('--ignore-case');
      if (args.multiline) flags.push('--multiline', '--multiline-dotall');
      if (args.glob) flags.push(...globFlags(args.glob));
      const show = (p: string): string => displayPath(path.resolve(ctx.cwd, p), ctx.cwd);
      const where = displayPath(target, ctx.cwd);
      const options = { cwd: ctx.cwd, signal: ctx.signal, env: ctx.env };
      const tail = ['-e', args.pattern, '--', target];

      if (mode === 'content') {
        const context = args.context ?? 0;
        const collector = new RgMatchCollector(GREP_MAX_RESULTS, context, show);
        const contextFlags = context > 0 ? ['--context', String(context)] : [];
        const exit = await runRipgrep(['--json', '--sort', 'path', ...contextFlags, ...flags, ...tail], options, (line) =>
          collector.push(line),
        );
        failOnError(exit, collector.total);
        if (collector.total === 0) return textResult(`No matches for ${args.pattern} in ${where}.`);
        return summarise(collector.text(), collector.shownCount, collector.total, 'match', 'matches');
      }

      const entries: string[] = [];
      let total = 0;
      const modeFlags = mode === 'files' ? ['--files-with-matches', '--sortr', 'modified'] : ['--count-matches', '--with-filename', '--sort', 'path'];
      const exit = await runRipgrep([...modeFlags, ...flags, ...tail], options, (line) => {
        total += 1;
        if (entries.length >= GREP_MAX_RESULTS) return;
        if (mode === 'files') entries.push(show(line));
        else {
          // `path:count`; the count is after the last colon (paths may contain colons).
          const colon = line.lastIndexOf(':');
          entries.push(colon > 0 ? `${show(line.slice(0, colon))}:${line.slice(colon + 1)}` : line);
        }
      });
      failOnError(exit, total);
      if (total === 0) return textResult(`No matches for ${args.pattern} in ${where}.`);
      return summarise(entries.join('\n'), entries.length, total, 'file', 'files');
    } catch (error) {
      return errorResult(error);
    }
  },
};

/**
 * rg's `--glob` overrides .gitignore for what it matches (`*` would search build/), so a
 * name-only glob becomes a file type (`--type-add`), which filters without overriding
 * ignore rules; a glob with a directory part still needs `--glob`.
 */
function globFlags(glob: string): string[] {
  if (glob.includes('/')) return ['--glob', glob];
  return ['--type-add', `agentdglob:${glob}`, '--type', 'agentdglob'];
}

function failOnError(exit: { exitCode: number; stderr: string }, found: number): void {
  if (exit.exitCode === 2 && found === 0) throw new ToolError(`grep failed: ${exit.stderr || 'ripgrep exited with status 2'}`);
}

function summarise(text: string, shown: number, total: number, one: string, many: string): ReturnType<typeof textResult> {
  if (shown >= total) return textResult(`${text}\n\n[${plural(total, one, many)}]`);
  return textResult(`${text}\n\n[Showing ${shown} of ${plural(total, one, many)}; narrow the pattern, path or glob to see the rest.]`, {
    truncated: true,
  });
}
