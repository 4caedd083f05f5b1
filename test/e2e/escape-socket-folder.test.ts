import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agentd, connectAgentdClient } from '../../clients/typescript/src/index.js';
import { checkSocketPath, UnsafeSocketPathError } from '../../protocol/wire/check-socket-path.js';
import { checkDaemon } from '../../src/cli/doctor/check-daemon.js';
import { isSocketLive } from '../../src/server/wire/transports/is-socket-live.js';
import { daemonEnv, makeHome, spawnDaemon, until } from '../support/daemon-process.js';
import { runCli } from '../support/run-cli.js';

const ME = process.getuid!();
/** Root can give a folder to another user for real; anyone else checks against another uid instead. */
const ROOT = ME === 0;
const NOBODY = 65534;

/** "Another user's daemon": a listener that records every connection and every byte it is sent. */
async function otherUsersDaemon(path: string): Promise<{ server: Server; connections(): number; received(): string; close(): Promise<void> }> {
  let connections = 0;
  let received = '';
  const server = createServer((socket) => {
    connections += 1;
    socket.on('data', (b: Buffer) => (received += b.toString()));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { server, connections: () => connections, received: () => received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('F11 a socket in a folder someone else owns or can write', () => {
  let root: string;
  let folder: string;
  let socketPath: string;
  let listener: Awaited<ReturnType<typeof otherUsersDaemon>> | undefined;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'agentd-sockdir-'));
    folder = join(root, 'run');
    mkdirSync(folder, { mode: 0o700 });
    socketPath = join(folder, 'agentd.sock');
    listener = await otherUsersDaemon(socketPath);
  });
  afterEach(async () => {
    await listener?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Every way a client connects refuses `path` with `pattern`, and nothing reached the listener. */
  async function everyClientRefuses(path: string, pattern: RegExp): Promise<void> {
    await expect(connectAgentdClient(path)).rejects.toThrow(pattern);
    await expect(isSocketLive(path)).rejects.toBeInstanceOf(UnsafeSocketPathError);
    await expect(Agentd.connect({ socketPath: path })).rejects.toThrow(pattern);
    const doctor = await checkDaemon(path);
    expect(doctor.status).toBe('fail');
    expect(`${doctor.detail}; ${doctor.fix}`).toMatch(pattern);
    expect(listener!.connections()).toBe(0);
  }

  it('F11 socket folder: a folder owned by another uid is refused, naming the folder, its owner and mode, and the fix', async () => {
    if (ROOT) {
      chownSync(folder, NOBODY, NOBODY);
      await everyClientRefuses(socketPath, new RegExp(`its folder ${folder} belongs to uid ${NOBODY}, not to you \\(uid 0\\), mode 0700.*set AGENTD_HOME`));
    }
    // Without root: the same real folder, checked for a user who does not own it.
    expect(() => checkSocketPath(socketPath, { action: 'connect to', uid: ME + 1 })).toThrow(
      new RegExp(`its folder ${folder} belongs to uid ${ROOT ? NOBODY : ME}, not to you \\(uid ${ME + 1}\\)`),
    );
  });

  it('F11 socket folder: a folder anyone may write (0777) is refused with chmod 700 as the fix', async () => {
    chmodSync(folder, 0o777);
    await everyClientRefuses(socketPath, new RegExp(`its folder ${folder} \\(yours, mode 0777\\) is writable by its group and everyone.*run chmod 700 ${folder}`));
  });

  it('F11 socket folder: a folder its group may write (0770) is refused', async () => {
    chmodSync(folder, 0o770);
    await everyClientRefuses(socketPath, /mode 0770\) is writable by its group, so another user could have put a socket there/);
  });

  it('F11 socket folder: a sticky world-writable folder (1777, like /tmp) is refused too', async () => {
    chmodSync(folder, 0o1777);
    await everyClientRefuses(socketPath, /mode 01777\) is writable by its group and everyone/);
  });

  it('F11 socket folder: a folder that is a symlink to another folder is refused, not followed', async () => {
    const link = join(root, 'linked-run');
    symlinkSync(folder, link);
    await everyClientRefuses(join(link, 'agentd.sock'), new RegExp(`its folder ${link} is a symbolic link \\(to ${folder}\\)`));
  });

  it('F11 socket folder: a socket owned by another uid in a private folder is refused', async () => {
    if (ROOT) {
      lchownSync(socketPath, NOBODY, NOBODY);
      await everyClientRefuses(socketPath, new RegExp(`${socketPath} belongs to uid ${NOBODY}, not to you`));
    } else {
      // Without root the folder check comes first for another uid; the socket's owner is checked the same way.
      expect(() => checkSocketPath(socketPath, { action: 'connect to', uid: ME + 1 })).toThrow(UnsafeSocketPathError);
    }
  });

  it('F11 socket folder: a socket path that is a symlink to a live socket is refused, and nothing connects through it', async () => {
    const link = join(folder, 'link.sock');
    symlinkSync(socketPath, link);
    await everyClientRefuses(link, new RegExp(`${link} is a symbolic link, not a socket \\(to ${socketPath}\\)`));
  });

  it('F11 socket folder: Agentd.connect with `start` does not start a daemon when the folder is unsafe', async () => {
    chmodSync(folder, 0o777);
    const marker = join(root, 'started');
    const start = { command: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] };
    // No socket yet: the folder alone refuses it, before anything is started there.
    await expect(Agentd.connect({ socketPath: join(folder, 'absent.sock'), start })).rejects.toBeInstanceOf(UnsafeSocketPathError);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
  });

  it('F11 socket folder: the check passes the folder agentd makes (0700, yours) and an absent folder', () => {
    expect(() => checkSocketPath(socketPath, { action: 'connect to' })).not.toThrow();
    expect(() => checkSocketPath(join(root, 'nowhere', 'agentd.sock'), { action: 'connect to' })).not.toThrow();
  });
});

describe('F11 agentd acp, run and serve --socket refuse a socket folder another user controls', () => {
  let home: ReturnType<typeof makeHome>;
  let shared: string;
  let listener: Awaited<ReturnType<typeof otherUsersDaemon>> | undefined;
  beforeEach(() => {
    home = makeHome({});
    shared = mkdtempSync(join(tmpdir(), 'agentd-shared-'));
  });
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
    home.cleanup();
    rmSync(shared, { recursive: true, force: true });
  });

  /** The finding's set-up: XDG_RUNTIME_DIR shared, and `<it>/agentd` made by another user, whose process listens there. */
  async function sharedRuntimeDir(): Promise<{ env: NodeJS.ProcessEnv; folder: string }> {
    chmodSync(shared, 0o1777);
    const folder = join(shared, 'agentd');
    mkdirSync(folder, { mode: 0o777 });
    chmodSync(folder, 0o777);
    listener = await otherUsersDaemon(join(folder, 'agentd.sock'));
    if (ROOT) chownSync(folder, NOBODY, NOBODY);
    const env = daemonEnv(home.home, {
      XDG_CONFIG_HOME: join(home.home, 'config-home'),
      XDG_DATA_HOME: join(home.home, 'data-home'),
      XDG_STATE_HOME: join(home.home, 'state-home'),
      XDG_RUNTIME_DIR: shared,
    });
    delete env.AGENTD_HOME;
    return { env, folder };
  }

  it('F11 socket folder: agentd acp with a shared XDG_RUNTIME_DIR sends nothing to the other user\'s socket (the finding)', async () => {
    const { env, folder } = await sharedRuntimeDir();
    const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })}\n`;
    const result = await runCli(['acp'], env, { stdin: initialize });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`agentd will not connect to ${join(folder, 'agentd.sock')}: its folder ${folder} `);
    expect(result.stderr).toMatch(ROOT ? /belongs to uid 65534, not to you \(uid 0\), mode 0777/ : /is writable by its group and everyone/);
    expect(result.stderr).toMatch(/set AGENTD_HOME to a folder of your own, or XDG_RUNTIME_DIR to your private runtime folder/);
    expect(listener!.connections()).toBe(0);
    expect(listener!.received()).toBe('');
  });

  it('F11 socket folder: agentd acp --socket PATH in a 0770 folder refuses before its probe connects', async () => {
    const folder = join(shared, 'group');
    mkdirSync(folder);
    chmodSync(folder, 0o770);
    listener = await otherUsersDaemon(join(folder, 'agentd.sock'));
    const result = await runCli(['acp', '--socket', join(folder, 'agentd.sock')], daemonEnv(home.home), { stdin: '{}\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`run chmod 700 ${folder}`);
    expect(listener.connections()).toBe(0);
  });

  it.each([
    { name: 'a 0777 folder', make: (dir: string) => chmodSync(dir, 0o777), problem: /\(yours, mode 0777\) is writable by its group and everyone/ },
    { name: 'a 0770 folder', make: (dir: string) => chmodSync(dir, 0o770), problem: /\(yours, mode 0770\) is writable by its group/ },
    { name: 'a folder owned by another uid', make: (dir: string) => (ROOT ? chownSync(dir, NOBODY, NOBODY) : chmodSync(dir, 0o722)), problem: ROOT ? /belongs to uid 65534, not to you/ : /is writable by/ },
  ])('F11 socket folder: serve --socket PATH in $name is refused and listens nowhere', async ({ make, problem }) => {
    const folder = join(shared, 'serve');
    mkdirSync(folder, { mode: 0o700 });
    make(folder);
    const path = join(folder, 'agentd.sock');
    const d = spawnDaemon(['serve', '--socket', path], daemonEnv(home.home));
    const { code } = await d.exited;
    expect(code).toBe(1);
    expect(d.stderr()).toContain(`agentd will not listen on ${path}: its folder ${folder}`);
    expect(d.stderr()).toMatch(problem);
    expect(existsSync(path)).toBe(false);
  });

  it('F11 socket folder: serve --socket PATH whose folder is a symlink to another folder is refused', async () => {
    const real = join(shared, 'real');
    mkdirSync(real, { mode: 0o700 });
    const link = join(shared, 'link');
    symlinkSync(real, link);
    const d = spawnDaemon(['serve', '--socket', join(link, 'agentd.sock')], daemonEnv(home.home));
    expect((await d.exited).code).toBe(1);
    expect(d.stderr()).toContain(`its folder ${link} is a symbolic link (to ${real})`);
    expect(existsSync(join(real, 'agentd.sock'))).toBe(false);
  });

  it('F11 socket folder: serve --socket with the default path refuses a runtime folder made group-writable', async () => {
    mkdirSync(join(home.home, 'run'), { mode: 0o700 });
    chmodSync(join(home.home, 'run'), 0o770);
    const d = spawnDaemon(['serve', '--socket'], daemonEnv(home.home));
    expect((await d.exited).code).toBe(1);
    expect(d.stderr()).toContain(`run chmod 700 ${join(home.home, 'run')}`);
  });

  it('F11 socket folder: agentd run through the owner refuses once the owner\'s socket folder became writable by others', async () => {
    const env = daemonEnv(home.home);
    const daemon = spawnDaemon(['serve', '--socket'], env);
    try {
      const socket = join(home.home, 'run', 'agentd.sock');
      await until(() => existsSync(socket), 10_000, 'the socket');
      chmodSync(join(home.home, 'run'), 0o777);
      const run = await runCli(['run', 'hello'], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`agentd will not connect to ${socket}: its folder ${join(home.home, 'run')} (yours, mode 0777) is writable`);
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
  });
});
