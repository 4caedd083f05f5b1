import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { atomicWrite } from '../files/atomic-write.js';
import { displayPath } from '../access/display-path.js';
import { argLocation, resolveArgPath, resolveConfinedPath } from '../access/path-confinement.js';
import { notRegularFile, readRegularFile } from '../files/open-regular-file.js';
import { fitsPreview, readForPreview } from '../files/read-for-preview.js';
import { recordWrittenFile } from '../files/record-written-file.js';
import { requireFreshRead } from '../files/require-fresh-read.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';
import { unifiedDiff } from '../files/unified-diff.js';

export const writeSchema = z
  .object({
    path: z.string().describe('File to write, relative to the working directory or absolute.'),
    content: z.string().describe('The complete new content of the file.'),
  })
  .strict();

export type WriteArgs = z.infer<typeof writeSchema>;

export const writeTool: Tool<WriteArgs> = {
  name: 'write',
  description:
    'Create a file or replace its whole content. Parent directories are created. An existing file must have been ' +
    'read in this session first (and not changed since). Prefer edit for changes to part of a file.',
  inputSchema: writeSchema,
  kind: 'edit',
  access: 'write',
  sequential: true,
  title: (args) => `Write ${args.path}`,
  locations: (args, ctx) => argLocation(args.path, ctx.cwd),
  async preview(args, ctx) {
    if (!fitsPreview(args.content)) return [];
    const file = resolveArgPath(args.path, ctx.cwd);
    const oldText = await readForPreview(file);
    return oldText === undefined ? [] : [{ path: file, oldText, newText: args.content }];
  },
  async execute(args, ctx) {
    try {
      const file = await resolveConfinedPath(ctx, args.path, { tool: 'write', access: 'write', args });
      const shown = displayPath(file, ctx.cwd);
      const existing = await stat(file).catch(() => undefined);
      if (existing?.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path to write.`);
      if (existing && !existing.isFile()) throw notRegularFile(shown, existing);
      let oldText: string | null = null;
      if (existing) {
        await requireFreshRead(ctx.fileState, file, shown);
        oldText = (await readRegularFile(file, shown)).toString('utf8');
      }
      const data = Buffer.from(args.content, 'utf8');
      await atomicWrite(file, data);
      await recordWrittenFile(ctx.fileState, file, data);
      const lines = args.content === '' ? 0 : args.content.split('\n').length - (args.content.endsWith('\n') ? 1 : 0);
      const summary = oldText === null ? `Created ${shown} (${lines} lines).` : `Wrote ${shown} (${lines} lines).`;
      const diff = unifiedDiff(file, ctx.cwd, oldText, args.content);
      return textResult(oldText === args.content ? `${summary} The content is unchanged.` : `${summary}\n\n${diff}`, {
        diff: [{ path: file, oldText, newText: args.content }],
      });
    } catch (error) {
      return errorResult(error);
    }
  },
};
