import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../../src/tools/builtin/edit.js';
import { grepTool } from '../../../src/tools/builtin/grep.js';
import { FileStateTracker } from '../../../src/tools/files/file-state-tracker.js';
import { readTool } from '../../../src/tools/builtin/read.js';
import { writeTool } from '../../../src/tools/builtin/write.js';
import { readForPreview } from '../../../src/tools/files/read-for-preview.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';
import { RIPGREP, requireProgram } from '../../support/required-program.js';

const hasRipgrep = requireProgram(RIPGREP);

/*
 * F13 — a workspace path the daemon opens for a tool may be a FIFO, a socket or a device
 * (one approved `mkfifo`, or a symlink to /dev/zero). No daemon-side open may block on
 * it (a blocked open holds one of libuv's four threadpool threads for good) or read it
 * without end: read, write, edit and the diff preview open without blocking and refuse
 * anything but a regular file with a tool error naming what it is.
 */

/** Opens each FIFO's write end without blocking, so any reader stuck in open() is released (cleanup after a failed guard). */
function releaseFifos(fifos: string[]): void {
  for (const fifo of fifos) {
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // No reader waiting (ENXIO), or already gone.
    }
  }
}

/** Rejects when `promise` is not settled within `ms`: a blocked open would never settle. */
function settlesWithin<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('F13 special files in the workspace', () => {
  let ws: TempDir;
  let fifos: string[];
  const fifo = (name: string): string => {
    const file = path.join(ws.dir, name);
    execFileSync('mkfifo', [file]);
    fifos.push(file);
    return file;
  };
  beforeEach(() => {
    ws = makeTempDir('agentd-f13-ws-');
    fifos = [];
  });
  afterEach(() => {
    releaseFifos(fifos);
    ws.cleanup();
  });

  it.each([
    ['a FIFO', () => fifo('pipe'), 'pipe', /^pipe is a FIFO \(named pipe\), not a regular file: the file tools read and write only regular files/],
    ['zero -> /dev/zero (after approval)', () => fs.symlinkSync('/dev/zero', path.join(ws.dir, 'zero')), 'zero', /^\/dev\/zero is a character device, not a regular file/],
    ['rnd -> /dev/urandom (after approval)', () => fs.symlinkSync('/dev/urandom', path.join(ws.dir, 'rnd')), 'rnd', /^\/dev\/urandom is a character device, not a regular file/],
    ['tty -> /dev/tty (after approval)', () => fs.symlinkSync('/dev/tty', path.join(ws.dir, 'tty')), 'tty', /^\/dev\/tty is a character device/],
  ])('F13 read of %s is refused at once, naming what it is', async (_name, plant, arg, message) => {
    plant();
    // makeContext's gate allows everything: the path outside (/dev/…) counts as approved.
    const result = await settlesWithin(2000, readTool.execute({ path: arg }, makeContext(ws.dir)), 'read');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it.each(['read', 'write', 'edit'] as const)('F13 %s of a Unix socket in the workspace is refused as a socket', async (tool) => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws.dir, 'sock'), resolve));
    try {
      const ctx = makeContext(ws.dir);
      const call =
        tool === 'read' ? readTool.execute({ path: 'sock' }, ctx) : tool === 'write' ? writeTool.execute({ path: 'sock', content: 'x' }, ctx) : editTool.execute({ path: 'sock', old: 'a', new: 'b' }, ctx);
      const result = await settlesWithin(2000, call, tool);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^sock is a socket, not a regular file/);
      expect(fs.lstatSync(path.join(ws.dir, 'sock')).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    ['a FIFO', () => fifo('pipe'), 'pipe', /^pipe is a FIFO \(named pipe\), not a regular file/],
    ['null -> /dev/null', () => fs.symlinkSync('/dev/null', path.join(ws.dir, 'null')), 'null', /^\/dev\/null is a character device, not a regular file/],
  ])('F13 write onto %s is refused and leaves it in place', async (_name, plant, arg, message) => {
    plant();
    const before = fs.lstatSync(path.join(ws.dir, arg));
    const result = await settlesWithin(2000, writeTool.execute({ path: arg, content: 'x' }, makeContext(ws.dir)), 'write');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(fs.lstatSync(path.join(ws.dir, arg)).ino).toBe(before.ino);
  });

  it('F13 edit of a FIFO is refused without waiting for a writer', async () => {
    fifo('pipe');
    const result = await settlesWithin(2000, editTool.execute({ path: 'pipe', old: 'a', new: 'b' }, makeContext(ws.dir)), 'edit');
    expect(textOf(result)).toMatch(/^pipe is a FIFO \(named pipe\), not a regular file/);
  });

  it('F13 a file read, then swapped for a FIFO, is refused by write and edit, naming the FIFO', async () => {
    fs.writeFileSync(path.join(ws.dir, 'a.txt'), '');
    const ctx = makeContext(ws.dir);
    expect((await readTool.execute({ path: 'a.txt' }, ctx)).isError).toBeFalsy();
    fs.rmSync(path.join(ws.dir, 'a.txt'));
    fifo('a.txt');
    for (const call of [writeTool.execute({ path: 'a.txt', content: 'x' }, ctx), editTool.execute({ path: 'a.txt', old: 'a', new: 'b' }, ctx)]) {
      expect(textOf(await settlesWithin(2000, call, 'write/edit'))).toMatch(/a\.txt is a FIFO/);
    }
  });

  it('F13 the freshness check of a file swapped for a FIFO of the same size calls it changed and never waits on it', async () => {
    const file = path.join(ws.dir, 'a.txt');
    const tracker = new FileStateTracker();
    tracker.record(file, { mtimeMs: 1, size: 0, hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' });
    fifo('a.txt');
    // Same size (0), another mtime: the tracker hashes the content to decide.
    await expect(settlesWithin(2000, tracker.checkUnchanged(file), 'checkUnchanged')).resolves.toBe('changed');
  });

  it.each([
    ['a FIFO', () => fifo('pipe'), 'pipe'],
    ['zero -> /dev/zero', () => fs.symlinkSync('/dev/zero', path.join(ws.dir, 'zero')), 'zero'],
  ])('F13 the diff preview of a write onto %s has no diff and returns at once', async (_name, plant, arg) => {
    plant();
    expect(await settlesWithin(2000, readForPreview(path.join(ws.dir, arg)), 'readForPreview')).toBeUndefined();
    expect(await settlesWithin(2000, writeTool.preview!({ path: arg, content: 'x' }, makeContext(ws.dir)), 'write preview')).toEqual([]);
    expect(await settlesWithin(2000, editTool.preview!({ path: arg, old: 'a', new: 'b' }, makeContext(ws.dir)), 'edit preview')).toEqual([]);
  });

  it('F13 finding 7: more write previews against FIFOs than libuv has threads, then an ordinary read in the same process still completes', async () => {
    // libuv's pool has 4 threads (UV_THREADPOOL_SIZE); 8 blocked opens would take them all.
    const previews = Array.from({ length: 8 }, (_, i) => writeTool.preview!({ path: path.basename(fifo(`pipe-${i}`)), content: 'x' }, makeContext(ws.dir)));
    expect(await settlesWithin(3000, Promise.all(previews), 'the previews')).toEqual(Array.from({ length: 8 }, () => []));
    fs.writeFileSync(path.join(ws.dir, 'plain.txt'), 'still served\n');
    expect(await settlesWithin(3000, readFile(path.join(ws.dir, 'plain.txt'), 'utf8'), 'an ordinary readFile')).toBe('still served\n');
  });

  it('F13 grep given a FIFO as its path is refused at once instead of waiting for the timeout', async () => {
    fifo('pipe');
    const result = await settlesWithin(3000, grepTool.execute({ pattern: 'x', path: 'pipe' }, makeContext(ws.dir)), 'grep');
    expect(textOf(result)).toMatch(/^pipe is a FIFO \(named pipe\), not a regular file/);
  });

  it.skipIf(!hasRipgrep)('F13 grep over a folder holding a FIFO and a link to /dev/zero skips both and finds the regular file', async () => {
    fifo('pipe');
    fs.symlinkSync('/dev/zero', path.join(ws.dir, 'zero'));
    fs.writeFileSync(path.join(ws.dir, 'a.txt'), 'needle\n');
    const result = await settlesWithin(5000, grepTool.execute({ pattern: 'needle' }, makeContext(ws.dir)), 'grep');
    expect(textOf(result)).toContain('a.txt:1:needle');
  });
});
