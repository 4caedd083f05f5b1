import { spawn } from 'node:child_process';
import { fstatSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitReady, READY_FD, READY_FD_ENV, signalReady, takeReadyFd } from '../../src/cli/daemon/ready-pipe.js';

/** A child with the ready pipe as its descriptor 3, running `script`. */
function childWithPipe(script: string): { pipe: Readable; kill(): void } {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
  return { pipe: child.stdio[READY_FD] as Readable, kill: () => child.kill('SIGKILL') };
}

describe('the pipe a daemon started on demand says it listens through', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('takes the descriptor from the environment and removes the variable, so the daemon’s children never see it', () => {
    const env: NodeJS.ProcessEnv = { [READY_FD_ENV]: '3', OTHER: 'x' };
    expect(takeReadyFd(env)).toBe(3);
    expect(env).toEqual({ OTHER: 'x' });
    expect(takeReadyFd(env)).toBeUndefined();
    for (const bad of ['', 'three', '3; rm -rf /', '-1']) {
      const withBad: NodeJS.ProcessEnv = { [READY_FD_ENV]: bad };
      expect(takeReadyFd(withBad), bad).toBeUndefined();
      expect(withBad).toEqual({});
    }
  });

  it('writes its line and closes the descriptor, so that no child spawned later holds the starter’s pipe open', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentd-ready-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const fd = openSync(join(dir, 'ready'), 'w');
    signalReady(fd);
    expect(readFileSync(join(dir, 'ready'), 'utf8')).toBe('listening\n');
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
    // A starter that has gone, or a descriptor already closed, is no error of the daemon's.
    expect(() => signalReady(fd)).not.toThrow();
  });

  it('tells the starter the daemon listens once it wrote the line, even in pieces', async () => {
    const child = childWithPipe("const fs = require('fs'); fs.writeSync(3, 'listen'); setTimeout(() => { fs.writeSync(3, 'ing\\n'); setInterval(() => {}, 1000); }, 20);");
    cleanups.push(child.kill);
    expect(await awaitReady(child.pipe, 10_000)).toBe('listening');
  });

  it('tells the starter the daemon stopped when the pipe closes without the line: it exited, or wrote something else', async () => {
    const exited = childWithPipe("process.exitCode = 78;");
    expect(await awaitReady(exited.pipe, 10_000)).toBe('ended');
    const other = childWithPipe("require('fs').writeSync(3, 'not what a daemon says\\n');");
    expect(await awaitReady(other.pipe, 10_000)).toBe('ended');
  });

  it('gives up after the time it is given when the daemon neither listens nor stops', async () => {
    const stuck = childWithPipe('setInterval(() => {}, 1000);');
    cleanups.push(stuck.kill);
    expect(await awaitReady(stuck.pipe, 100)).toBe('timeout');
  });
});
