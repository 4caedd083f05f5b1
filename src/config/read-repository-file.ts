import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { describeFileType } from './describe-file-type.js';

/**
 * Size caps per kind of file agentd reads by itself. Real files are far below them; a
 * cap only stops a file that never ends (a link to /dev/zero) or a planted giant one.
 */
export const FILE_CAPS = {
  /** config.json: real configs are a few KiB; JSON.parse and validation of 1 MiB still take milliseconds. */
  config: { bytes: 1024 * 1024, label: 'config files' },
  /** AGENTS.md and agent files ride in every model request: 64 KiB is some 16k tokens, already a large share of a context. */
  prompt: { bytes: 64 * 1024, label: 'instruction and agent files' },
  /** SKILL.md is parsed for every system prompt and loaded into the conversation when used. */
  skill: { bytes: 128 * 1024, label: 'skill files' },
  /** git's HEAD, `.git` files and commondir are a line each. */
  gitPointer: { bytes: 4096, label: 'git pointer files' },
} as const;

export type FileCap = (typeof FILE_CAPS)[keyof typeof FILE_CAPS];

export interface ReadRepositoryFileOptions {
  /**
   * The repository the file belongs to: its real path (all symlinks resolved) must lie
   * inside. Several spellings of one project (see projectBoundaries) may be given: inside
   * any of them will do. Undefined for the user's own files (user config,
   * ~/.config/agentd/agents), which may link anywhere but are still type-checked and capped.
   */
  root: string | readonly string[] | undefined;
  /** The size cap (a FILE_CAPS entry). */
  cap: FileCap;
  /** A longer file is refused, or (`cut`) its first `cap` bytes are used, up to the last whole line. */
  overCap: 'refuse' | 'cut';
}

/** A file's text, or why it was not read. Messages say what the file is and the fix; the caller prefixes the file name. */
export type RepositoryFileResult =
  | { kind: 'missing' }
  | { kind: 'ok'; text: string; /** Set when the text was cut at the cap; says so. */ warning?: string }
  | { kind: 'refused'; message: string };

/** Opening never waits (a FIFO without a writer) and never makes a terminal ours. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Reads a file agentd reads on its own (config, AGENTS.md, agent and skill files, git's
 * HEAD), treating its content as untrusted and its type as hostile: the path is resolved
 * first and must stay inside `root`; the file is checked with stat to be a regular file (a
 * FIFO, a device, a socket or a directory is refused), opened without blocking, checked
 * again with fstat (and, on Linux, for where the descriptor really points), and
 * at most cap+1 bytes are read, so a file that grows or never ends costs no more than the
 * cap. Every step is bounded, so the read is too. A leading BOM is dropped.
 * Synchronous, like the config loader: it runs between turns and reads little.
 */
export function readRepositoryFile(file: string, options: ReadRepositoryFileOptions): RepositoryFileResult {
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused', message: 'is a loop of symbolic links; replace it with a regular file' };
    return { kind: 'refused', message: `cannot be resolved (${code ?? String(error)}); check the path and its permissions` };
  }
  const roots = options.root === undefined ? undefined : (typeof options.root === 'string' ? [options.root] : options.root).map(realOrSelf);
  if (roots !== undefined && !roots.some((root) => inside(real, root))) {
    return {
      kind: 'refused',
      message: `leads outside the repository ${roots[0]}, to ${real} (through a symbolic link); agentd reads a repository's own files only from inside it: replace the link with a copy of the file`,
    };
  }
  // The type is checked before opening too: a device is never opened (some act on open).
  let before: Stats | undefined;
  try {
    before = statSync(real, { throwIfNoEntry: false });
  } catch (error) {
    return { kind: 'refused', message: `cannot be examined (${(error as NodeJS.ErrnoException).code ?? String(error)}); check its permissions` };
  }
  if (before === undefined) return { kind: 'missing' };
  if (!before.isFile()) return notRegular(before);
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'refused', message: `cannot be opened (${code ?? String(error)}); check its permissions` };
  }
  try {
    // The path may have been swapped between resolving and opening: judge what was opened.
    const opened = openedPath(fd);
    if (roots !== undefined && opened !== undefined && !roots.some((root) => inside(opened, root))) {
      return { kind: 'refused', message: `changed while it was being read and now leads outside the repository, to ${opened}; leave it alone and try again` };
    }
    const stats = fstatSync(fd);
    if (!stats.isFile()) return notRegular(stats);
    const { bytes, label } = options.cap;
    const buffer = Buffer.allocUnsafe(bytes + 1);
    let length = 0;
    for (let n = 1; n > 0 && length <= bytes; length += n) n = readSync(fd, buffer, length, bytes + 1 - length, null);
    let data = buffer.subarray(0, length);
    let warning: string | undefined;
    if (length > bytes) {
      const size = stats.size > bytes ? `${stats.size} bytes` : `more than ${bytes} bytes`;
      if (options.overCap === 'refuse') {
        return { kind: 'refused', message: `is ${size}, over the ${formatBytes(bytes)} limit for ${label}; shorten it` };
      }
      const lastNewline = data.lastIndexOf(0x0a, bytes - 1);
      data = data.subarray(0, lastNewline > 0 ? lastNewline + 1 : bytes);
      warning = `is ${size}, over the ${formatBytes(bytes)} limit for ${label}: only its first ${data.length} bytes are used; shorten it`;
    }
    const text = data.toString('utf8').replace(/^\uFEFF/, '');
    return warning === undefined ? { kind: 'ok', text } : { kind: 'ok', text, warning };
  } catch (error) {
    return { kind: 'refused', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the file` };
  } finally {
    closeSync(fd);
  }
}

function notRegular(stats: Stats): RepositoryFileResult {
  const fix = stats.isDirectory() ? 'move the directory away and put a file in its place' : 'replace it with a regular file, or delete it';
  return { kind: 'refused', message: `is ${describeFileType(stats)}, not a regular file; agentd reads only regular files here: ${fix}` };
}

/** Where an open descriptor really points (Linux's /proc/self/fd); undefined where that is not available. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** `child` is `parent` or below it (both real, absolute); the tools' isInside sits in a higher layer. */
function inside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : bytes >= 1024 ? `${bytes / 1024} KiB` : `${bytes}-byte`;
}
