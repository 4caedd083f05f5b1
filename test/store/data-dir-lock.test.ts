import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { DataDirBusyError, lockDataDir, tryLockDataDir } from '../../src/store/data-dir-lock.js';

const LOCK_MODULE = fileURLToPath(new URL('../../dist/src/store/data-dir-lock.js', import.meta.url));

/** Another process tries the lock and prints what it got. */
function tryFromAnotherProcess(dataDir: string): Promise<{ kind: string; pid?: number }> {
  const script = `import { tryLockDataDir } from ${JSON.stringify(LOCK_MODULE)};
    const a = tryLockDataDir(${JSON.stringify(dataDir)});
    console.log(JSON.stringify({ kind: a.kind, pid: a.owner?.pid }));`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', () => resolve(JSON.parse(out) as { kind: string; pid?: number }));
  });
}

describe('the data directory lock', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentd-lock-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('[F9 store-ownership] a second in-process daemon on the same home is refused with the owner named', async () => {
    const options = { cwd: dir, env: { AGENTD_HOME: dir }, version: 'test', write: () => undefined };
    const first = await startDaemon(options);
    try {
      const error = await startDaemon(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirBusyError);
      expect((error as Error).message).toContain(`another agentd (pid ${process.pid}`);
      expect((error as Error).message).toContain(join(dir, 'data'));
    } finally {
      await first.shutdown();
    }
    // Released at shutdown: the next one starts.
    const next = await startDaemon(options);
    await next.shutdown();
  });

  it('[F9 store-ownership] asking twice from the owner process does not drop the lock (POSIX closes all locks on close)', async () => {
    const data = join(dir, 'data');
    const lock = lockDataDir(data);
    try {
      expect(tryLockDataDir(data).kind).toBe('held');
      expect(tryLockDataDir(data).kind).toBe('held');
      expect(await tryFromAnotherProcess(data)).toEqual({ kind: 'held', pid: process.pid });
    } finally {
      lock.release();
    }
    expect((await tryFromAnotherProcess(data)).kind).toBe('acquired');
  });

  it('[F9 store-ownership] another spelling of the directory (a symlink) finds the same lock', async () => {
    const data = join(dir, 'data');
    const lock = lockDataDir(data);
    try {
      symlinkSync(data, join(dir, 'alias'));
      expect(tryLockDataDir(join(dir, 'alias'))).toMatchObject({ kind: 'held', owner: { pid: process.pid } });
      expect(await tryFromAnotherProcess(join(dir, 'alias'))).toEqual({ kind: 'held', pid: process.pid });
    } finally {
      lock.release();
    }
  });

  it('[F9 store-ownership] the owner file says what the owner serves, for the messages of others', () => {
    const data = join(dir, 'data');
    const lock = lockDataDir(data);
    try {
      lock.announce({ socketPath: '/run/x/agentd.sock' });
      lock.announce({ listen: '127.0.0.1:7777' });
      expect(JSON.parse(readFileSync(join(data, 'agentd.owner.json'), 'utf8'))).toMatchObject({
        pid: process.pid,
        socketPath: '/run/x/agentd.sock',
        listen: '127.0.0.1:7777',
      });
      const held = tryLockDataDir(data);
      expect(held.kind).toBe('held');
      const message = new DataDirBusyError(data, held.kind === 'held' ? held.owner : undefined).message;
      expect(message).toMatch(/serving socket \/run\/x\/agentd.sock and tcp 127.0.0.1:7777\) owns the data directory/);
      expect(message).toContain('agentd acp --socket /run/x/agentd.sock');
    } finally {
      lock.release();
    }
  });
});
