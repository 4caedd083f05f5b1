import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDaemon } from '../../../src/cli/doctor/check-daemon.js';
import { createDaemonShell } from '../../../src/daemon/create-daemon-shell.js';
import { loadDaemonSettings } from '../../../src/daemon/load-daemon-settings.js';
import { serveUnixSocket } from '../../../src/server/wire/transports/unix-socket-transport.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
let socketPath: string;
beforeEach(() => {
  t = makeTempHome();
  socketPath = path.join(t.home, 'agentd.sock');
});
afterEach(() => t.cleanup());

/** A Unix socket server that handles each connection with `onConnection`; `close` drops its connections. */
async function listen(onConnection: (socket: net.Socket) => void): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.resume();
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('checkDaemon', () => {
  it('is ok when no daemon runs', async () => {
    const check = await checkDaemon(socketPath);
    expect(check.status).toBe('ok');
    expect(check.detail).toContain(`no daemon running on ${socketPath}`);
  });

  it('reports the version of a real daemon answering initialize on the socket', async () => {
    const shell = createDaemonShell(loadDaemonSettings({ cwd: t.home, env: t.env, version: '9.8.7', write: () => undefined }));
    const server = await serveUnixSocket(shell, socketPath);
    try {
      expect(await checkDaemon(socketPath)).toEqual({ id: 'daemon', title: 'daemon', status: 'ok', detail: `agentd 9.8.7 answers on ${socketPath}` });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await shell.shutdown();
    }
  });

  it('is ok with a socket file left by a daemon that was killed', async () => {
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(fs.lstatSync(socketPath).isSocket()).toBe(true);
    const check = await checkDaemon(socketPath);
    expect(check.status).toBe('ok');
    expect(check.detail).toBe(`no daemon running; ${socketPath} is left from an earlier one (ECONNREFUSED) and the next daemon replaces it`);
  });

  it('warns about a process that accepts connections but never answers', async () => {
    const server = await listen(() => undefined);
    try {
      const check = await checkDaemon(socketPath, 200);
      expect(check.status).toBe('warn');
      expect(check.detail).toBe(`a process accepts connections on ${socketPath} but did not answer initialize within 200 ms`);
      expect(check.fix).toContain('ss -xlp');
    } finally {
      await server.close();
    }
  });

  it('warns about a process that answers like something else, or hangs up', async () => {
    const talker = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n\n'));
    try {
      expect((await checkDaemon(socketPath)).detail).toContain('did not answer like agentd (not JSON: HTTP/1.1 400 Bad Request');
    } finally {
      await talker.close();
    }
    const hangsUp = await listen((socket) => socket.destroy());
    try {
      expect((await checkDaemon(socketPath)).detail).toContain('did not answer like agentd (it closed the connection without an answer');
    } finally {
      await hangsUp.close();
    }
  });

  it('warns when the socket path is a regular file', async () => {
    fs.writeFileSync(socketPath, '');
    expect(await checkDaemon(socketPath)).toMatchObject({ status: 'warn', detail: `${socketPath} exists but is not a socket` });
  });
});
