import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { displayPath } from '../access/display-path.js';
import { argLocation, resolveConfinedPath } from '../access/path-confinement.js';
import { searchExclusions } from '../search/search-exclusions.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';

/** Most entries listed by one call. */
export const LS_MAX_ENTRIES = 1000;
/** Directories skipped unless asked: huge and rarely what the model wants. */
export const LS_IGNORED = ['node_modules', '.git'];

export const lsSchema = z
  .object({
    path: z.string().optional().describe('Directory to list (default: the working directory).'),
    includeIgnored: z.boolean().optional().describe(`Also list ${LS_IGNORED.join(' and ')} (skipped by default).`),
  })
  .strict();

export type LsArgs = z.infer<typeof lsSchema>;

export const lsTool: Tool<LsArgs> = {
  name: 'ls',
  description:
    `List a directory: one entry per line, sorted, directories with a trailing "/", at most ${LS_MAX_ENTRIES} entries. ` +
    `${LS_IGNORED.join(' and ')} are skipped unless includeIgnored is set.`,
  inputSchema: lsSchema,
  kind: 'read',
  access: 'read',
  title: (args) => `List ${args.path ?? '.'}`,
  locations: (args, ctx) => argLocation(args.path ?? '.', ctx.cwd),
  async execute(args, ctx) {
    try {
      const dir = await resolveConfinedPath(ctx, args.path ?? '.', { tool: 'ls', access: 'read', args });
      const shown = displayPath(dir, ctx.cwd);
      const info = await stat(dir).catch(() => {
        throw new ToolError(`${shown} does not exist.`);
      });
      if (!info.isDirectory()) throw new ToolError(`${shown} is a file, not a directory; use read to see its content.`);
      const dirents = await readdir(dir, { withFileTypes: true });
      // Names of hidden paths (`.ssh` in the home folder) are listed, as bash's `ls` shows
      // them; the note says they are off limits. Nothing inside them is ever listed here.
      const excluded = await searchExclusions(ctx, dir);
      const skipped: string[] = [];
      const names: string[] = [];
      for (const entry of dirents) {
        if (!args.includeIgnored && LS_IGNORED.includes(entry.name)) {
          skipped.push(`${entry.name}/`);
          continue;
        }
        // A symlink to a directory is listed as a directory, as `ls -F` shows it.
        const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path.join(dir, entry.name))));
        names.push(isDir ? `${entry.name}/` : entry.name);
      }
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const notes: string[] = [];
      if (names.length > LS_MAX_ENTRIES) notes.push(`[Showing ${LS_MAX_ENTRIES} of ${names.length} entries; use glob to narrow down.]`);
      if (skipped.length > 0) notes.push(`[Skipped ${skipped.join(', ')}; pass includeIgnored: true to list them.]`);
      if (excluded.note) notes.push(excluded.note);
      const listing = names.length === 0 ? `${shown} is empty.` : names.slice(0, LS_MAX_ENTRIES).join('\n');
      const text = notes.length > 0 ? `${listing}\n\n${notes.join('\n')}` : listing;
      return textResult(text, names.length > LS_MAX_ENTRIES ? { truncated: true } : undefined);
    } catch (error) {
      return errorResult(error);
    }
  },
};

async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
