import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { applyEdits, type TextEdit } from '../files/apply-edits.js';
import { atomicWrite } from '../files/atomic-write.js';
import { displayPath } from '../access/display-path.js';
import { normaliseText, restoreText, toLf, type NormalisedText } from '../files/line-endings.js';
import { argLocation, resolveArgPath, resolveConfinedPath } from '../access/path-confinement.js';
import { notRegularFile, readRegularFile } from '../files/open-regular-file.js';
import { fitsPreview, readForPreview } from '../files/read-for-preview.js';
import { recordWrittenFile } from '../files/record-written-file.js';
import { requireFreshRead } from '../files/require-fresh-read.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';
import { unifiedDiff } from '../files/unified-diff.js';

const editEntry = z
  .object({
    old: z.string().describe('Exact text to replace, including whitespace; must occur once unless replaceAll.'),
    new: z.string().describe('Replacement text.'),
    replaceAll: z.boolean().optional().describe('Replace every occurrence.'),
  })
  .strict();

// One flat object (not a union) so every vendor accepts the schema: either `edits`, or
// the single-edit shorthand `old`/`new`/`replaceAll`.
export const editSchema = z
  .object({
    path: z.string().describe('File to edit, relative to the working directory or absolute.'),
    edits: z.array(editEntry).min(1).optional().describe('Replacements applied in order; all succeed or none is written.'),
    old: z.string().optional().describe('Single-edit form: exact text to replace.'),
    new: z.string().optional().describe('Single-edit form: replacement text.'),
    replaceAll: z.boolean().optional().describe('Single-edit form: replace every occurrence.'),
  })
  .strict();

export type EditArgs = z.infer<typeof editSchema>;

/** The edits of a call, from either form. */
export function editsOf(args: EditArgs): TextEdit[] {
  const single = args.old !== undefined || args.new !== undefined;
  if (args.edits && single) throw new ToolError('Pass either edits or old/new, not both.');
  if (args.edits) return args.edits;
  if (args.old === undefined || args.new === undefined) {
    throw new ToolError('Nothing to edit: pass edits: [{old, new}] or both old and new.');
  }
  return [{ old: args.old, new: args.new, replaceAll: args.replaceAll }];
}

/**
 * The edits applied to a file's raw text as the model quoted them: matched with LF endings
 * and no BOM (when the file's endings allow), written back with the file's own. Gives the
 * text to write (`newRaw`), before and after as matched (`normal.text`, `edited`, for the
 * model's diff) and without the BOM (`oldText`, `newText`, for the client's diff view).
 */
function applyToFileText(
  raw: string,
  edits: TextEdit[],
  shown: string,
): { edited: string; newRaw: string; normal: NormalisedText; oldText: string; newText: string } {
  const normal = normaliseText(raw);
  const matchLf = normal.crlf || !normal.text.includes('\r\n');
  const prepared = matchLf ? edits.map((e) => ({ ...e, old: toLf(e.old), new: toLf(e.new) })) : edits;
  const edited = applyEdits(normal.text, prepared, shown);
  const newRaw = restoreText(edited, normal);
  return { edited, newRaw, normal, oldText: raw.replace(/^\uFEFF/, ''), newText: newRaw.replace(/^\uFEFF/, '') };
}

export const editTool: Tool<EditArgs> = {
  name: 'edit',
  description:
    'Replace exact text in a file. Each old text must occur exactly once (or set replaceAll). Several edits in one ' +
    'call are applied in order and written together: all or none. Read the file first. Line endings and BOM are kept.',
  inputSchema: editSchema,
  kind: 'edit',
  access: 'write',
  sequential: true,
  title: (args) => `Edit ${args.path}`,
  locations: (args, ctx) => argLocation(args.path, ctx.cwd),
  async preview(args, ctx) {
    const file = resolveArgPath(args.path, ctx.cwd);
    const raw = await readForPreview(file);
    if (typeof raw !== 'string') return [];
    try {
      const { oldText, newText } = applyToFileText(raw, editsOf(args), displayPath(file, ctx.cwd));
      return fitsPreview(newText) ? [{ path: file, oldText, newText }] : [];
    } catch {
      return []; // The edit would fail; the call's own error will say why.
    }
  },
  async execute(args, ctx) {
    try {
      const edits = editsOf(args);
      const file = await resolveConfinedPath(ctx, args.path, { tool: 'edit', access: 'write', args });
      const shown = displayPath(file, ctx.cwd);
      const info = await stat(file).catch(() => undefined);
      if (!info) throw new ToolError(`${shown} does not exist; use write to create it.`);
      if (!info.isFile()) throw notRegularFile(shown, info);
      await requireFreshRead(ctx.fileState, file, shown);

      const raw = (await readRegularFile(file, shown)).toString('utf8');
      const { edited, newRaw, normal, oldText, newText } = applyToFileText(raw, edits, shown);
      const data = Buffer.from(newRaw, 'utf8');
      await atomicWrite(file, data);
      await recordWrittenFile(ctx.fileState, file, data);
      const count = edits.length === 1 ? '1 edit' : `${edits.length} edits`;
      return textResult(`Applied ${count} to ${shown}.\n\n${unifiedDiff(file, ctx.cwd, normal.text, edited)}`, {
        diff: [{ path: file, oldText, newText }],
      });
    } catch (error) {
      return errorResult(error);
    }
  },
};
