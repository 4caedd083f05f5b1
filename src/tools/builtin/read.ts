import { createHash } from 'node:crypto';
import { stat, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { detectImageType } from '../files/detect-image-type.js';
import { displayPath } from '../access/display-path.js';
import { argLocation, resolveConfinedPath } from '../access/path-confinement.js';
import { openRegularFile } from '../files/open-regular-file.js';
import { readChunks } from '../files/read-chunks.js';
import { readTextWindow } from '../files/read-text-window.js';
import type { Tool } from '../tool.js';
import { errorResult, textResult, ToolError } from '../tool-error.js';

/** Most lines returned by one call. */
export const READ_MAX_LINES = 2000;
/** Most bytes of formatted output returned by one call. */
export const READ_MAX_BYTES = 50 * 1024;
/** Lines longer than this are cut with a marker. */
export const READ_MAX_LINE_CHARS = 2000;
/** Images above this size are refused (Anthropic's per-image limit is 5 MB). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Bytes inspected for NUL to tell binary from text (as git and grep do). */
const SNIFF_BYTES = 8192;

export const readSchema = z
  .object({
    path: z.string().describe('File to read, relative to the working directory or absolute.'),
    offset: z.number().int().min(1).optional().describe('1-based line to start from (default 1).'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(READ_MAX_LINES)
      .optional()
      .describe(`Most lines to return (default and maximum ${READ_MAX_LINES}).`),
  })
  .strict();

export type ReadArgs = z.infer<typeof readSchema>;

export const readTool: Tool<ReadArgs> = {
  name: 'read',
  description:
    `Read a file. Text comes back numbered like \`cat -n\` (line number, tab, text), at most ${READ_MAX_LINES} lines ` +
    `or ${READ_MAX_BYTES / 1024} KB per call; use offset/limit to page through longer files. ` +
    'PNG, JPEG, GIF and WebP images come back as images. Read a file before you write or edit it.',
  inputSchema: readSchema,
  kind: 'read',
  access: 'read',
  title: (args) => `Read ${args.path}${args.offset ? ` from line ${args.offset}` : ''}`,
  locations: (args, ctx) => argLocation(args.path, ctx.cwd, args.offset ?? 1),
  async execute(args, ctx) {
    let handle: FileHandle | undefined;
    try {
      const file = await resolveConfinedPath(ctx, args.path, { tool: 'read', access: 'read', args });
      const shown = displayPath(file, ctx.cwd);
      const found = await stat(file).catch(() => {
        throw new ToolError(`File not found: ${shown}. Check the path with ls or glob.`);
      });
      if (found.isDirectory()) throw new ToolError(`${shown} is a directory, not a file; use the ls tool to list it.`);
      // One non-blocking open, judged by fstat (a FIFO or device is refused, and a swap since the stat changes nothing).
      const opened = await openRegularFile(file, shown);
      handle = opened.handle;
      const info = opened.info;

      const head = await readHead(handle);
      const imageType = detectImageType(head);
      if (imageType) {
        if (info.size > MAX_IMAGE_BYTES) {
          throw new ToolError(`${shown} is a ${info.size}-byte image, above the ${MAX_IMAGE_BYTES}-byte limit; resize it first.`);
        }
        const data = await handle.readFile();
        ctx.fileState.record(file, { mtimeMs: info.mtimeMs, size: info.size, hash: createHash('sha256').update(data).digest('hex') });
        return {
          content: [
            { type: 'text', text: `Image ${shown} (${imageType}, ${info.size} bytes):` },
            { type: 'image', data: data.toString('base64'), mimeType: imageType },
          ],
        };
      }
      if (head.includes(0)) {
        throw new ToolError(`${shown} is a binary file (it contains NUL bytes); it cannot be read as text. Use bash tools such as \`file\` or \`xxd\` to inspect it.`);
      }

      const offset = args.offset ?? 1;
      const window = await readTextWindow(readChunks(handle), {
        offset,
        maxLines: args.limit ?? READ_MAX_LINES,
        maxBytes: READ_MAX_BYTES,
        maxLineChars: READ_MAX_LINE_CHARS,
      });
      ctx.fileState.record(file, { mtimeMs: info.mtimeMs, size: info.size, hash: window.hash });
      if (window.totalLines === 0) return textResult(`${shown} is empty.`);
      if (offset > window.totalLines) {
        throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${window.totalLines} lines.`);
      }
      let text = window.text;
      if (window.lastLine < window.totalLines) {
        const cap = window.byteCapped ? `the ${READ_MAX_BYTES / 1024} KB output cap` : 'the line limit';
        text +=
          `\n\n[Showing lines ${offset}-${window.lastLine} of ${window.totalLines} (stopped at ${cap}). ` +
          `Use offset=${window.lastLine + 1} to continue.]`;
      }
      return textResult(text, window.lastLine < window.totalLines ? { truncated: true } : undefined);
    } catch (error) {
      return errorResult(error);
    } finally {
      await handle?.close();
    }
  },
};

async function readHead(handle: FileHandle): Promise<Buffer> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead);
}
