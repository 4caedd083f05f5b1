import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectPeer, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { freePort } from '../support/free-port.js';

/** A raw TCP client: what it received, and a promise that settles when the daemon hangs up. */
interface RawClient {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
}

async function rawConnect(port: number): Promise<RawClient> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (b: Buffer) => (received += b.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => received, closed };
}

/** Opens a connection and sends initialize with the token: true when it is answered, false when refused. */
async function initializes(port: number, token: string): Promise<boolean> {
  const client = await rawConnect(port);
  blast(client, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, _meta: { agentd: { token } } } }) + '\n');
  await Promise.race([client.closed, until(() => client.received().includes('"result"'), 5000, 'an answer')]);
  const answered = client.received().includes('"result"');
  client.socket.destroy();
  return answered;
}

/** Writes without waiting for the daemon to read; a refused write (EPIPE) is the point of some tests. */
function blast(client: RawClient, bytes: Buffer | string): void {
  client.socket.write(bytes, () => undefined);
}

describe('TCP limits for connections that have not authenticated', () => {
  let home: ReturnType<typeof makeHome>;
  let daemon: DaemonChild;
  let port: number;
  let token: string;

  beforeEach(async () => {
    // Small numbers so each limit is reached with a handful of sockets.
    home = makeHome({ server: { authTimeoutMs: 400, maxUnauthenticatedConnections: 3, maxConnections: 6 } });
    port = await freePort();
    daemon = spawnDaemon(['serve', '--listen', `127.0.0.1:${port}`], daemonEnv(home.home));
    const tokenFile = join(home.home, 'state', 'token');
    await until(() => existsSync(tokenFile) && daemon.stderr().includes('serving tcp'), 10_000, 'the daemon');
    token = readFileSync(tokenFile, 'utf8').trim();
  });

  afterEach(async () => {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    home.cleanup();
  });

  it('[F11 transport-limits] a 100 KiB first NDJSON frame is refused as too large and the socket closed', async () => {
    const client = await rawConnect(port);
    blast(client, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"${'x'.repeat(100 * 1024)}"}}\n`);
    await client.closed;
    const answer = JSON.parse(client.received().trim().split('\n')[0]!) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32011);
    expect(answer.error.message).toMatch(/exceeds the frame limit of 65536 bytes/);
  });

  it('[F11 transport-limits] a Content-Length header announcing 100 KiB is refused before the body is read', async () => {
    const client = await rawConnect(port);
    blast(client, `Content-Length: ${100 * 1024}\r\n\r\n{"jsonrpc":"2.0"`);
    await client.closed;
    expect(client.received()).toMatch(/message of 102400 bytes exceeds the frame limit of 65536 bytes/);
  });

  it('[F11 transport-limits] a stream of whitespace before any frame cannot pile up either', async () => {
    const client = await rawConnect(port);
    blast(client, ' '.repeat(100 * 1024));
    await client.closed;
    expect(client.received()).toMatch(/exceeds the frame limit of 65536 bytes/);
  });

  it('[F11 transport-limits] a malformed message before authentication gets one answer and the connection is closed', async () => {
    const client = await rawConnect(port);
    blast(client, 'not json at all\n');
    await client.closed;
    expect(JSON.parse(client.received().trim()).error.code).toBe(-32700);
  });

  it('[F11 transport-limits] a connection that never authenticates is closed after server.authTimeoutMs', async () => {
    const client = await rawConnect(port);
    blast(client, '{"jsonrpc":"2.0",'); // half a message, then silence
    await client.closed;
    await until(() => /no initialize with the token within 400 ms; closing/.test(daemon.stderr()), 5000, 'the log line');
  });

  it('[F11 transport-limits] the N+1th unauthenticated connection is refused; authenticated ones do not count', async () => {
    const waiting = [await rawConnect(port), await rawConnect(port), await rawConnect(port)];
    const refused = await rawConnect(port);
    await refused.closed;
    expect(refused.received()).toMatch(/too many connections waiting to authenticate \(server.maxUnauthenticatedConnections is 3\)/);

    // Once the waiting ones are gone (here: timed out), a client with the token gets in, and
    // it does not take an unauthenticated slot.
    await Promise.all(waiting.map((c) => c.closed));
    const good = await connectPeer({ host: '127.0.0.1', port });
    await good.call('initialize', { protocolVersion: 1, _meta: { agentd: { token } } });
    const more = [await rawConnect(port), await rawConnect(port), await rawConnect(port)];
    const fourth = await rawConnect(port);
    await fourth.closed;
    expect(fourth.received()).toMatch(/too many connections waiting/);
    // The authenticated client stays served meanwhile, and its frames may now exceed 64 KiB.
    const big = await good.request('session/list', { cwd: `/${'d'.repeat(100 * 1024)}` });
    expect(big.error?.code).not.toBe(-32011);
    for (const c of more) c.socket.destroy();
    good.close();
  });

  it('[F11 transport-limits] server.maxConnections caps every TCP connection, authenticated or not', async () => {
    const peers = [];
    for (let i = 0; i < 6; i++) {
      const peer = await connectPeer({ host: '127.0.0.1', port });
      await peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { token } } });
      peers.push(peer);
    }
    const seventh = await rawConnect(port);
    await seventh.closed;
    expect(seventh.received()).toMatch(/too many connections \(server.maxConnections is 6\)/);
    // A closed connection frees its slot: a new client gets in once the daemon has seen the close.
    peers.pop()!.close();
    await until(() => initializes(port, token), 5000, 'a freed slot');
    for (const p of peers) p.close();
  });
});

describe('serve --socket PATH replaces only a stale socket', () => {
  let home: ReturnType<typeof makeHome>;
  let dir: string;

  beforeEach(() => {
    home = makeHome();
    dir = mkdtempSync(join(tmpdir(), 'agentd-sock-'));
  });

  afterEach(() => {
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusedWith = async (path: string, pattern: RegExp): Promise<void> => {
    const d = spawnDaemon(['serve', '--socket', path], daemonEnv(home.home));
    const { code } = await d.exited;
    expect(code).toBe(1);
    expect(d.stderr()).toMatch(pattern);
    expect(d.stderr()).toContain(path);
  };

  it('[F11 transport-limits] a regular file at the socket path survives a refused serve', async () => {
    const path = join(dir, 'agentd.sock');
    writeFileSync(path, 'precious notes\n');
    await refusedWith(path, /is a regular file \(15 bytes\), not a socket; .*move it aside or pass --socket with another path/);
    expect(readFileSync(path, 'utf8')).toBe('precious notes\n');
  });

  it('[F11 transport-limits] a symlink to a file at the socket path survives, and so does its target', async () => {
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'keep me');
    const path = join(dir, 'agentd.sock');
    symlinkSync(target, path);
    await refusedWith(path, /is a symbolic link, not a socket/);
    expect(readlinkSync(path)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });

  it('[F11 transport-limits] a dangling symlink at the socket path is refused, not followed or replaced', async () => {
    const path = join(dir, 'agentd.sock');
    symlinkSync(join(dir, 'nowhere', 'x.sock'), path);
    await refusedWith(path, /is a symbolic link/);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('[F11 transport-limits] a directory at the socket path survives with its contents', async () => {
    const path = join(dir, 'agentd.sock');
    mkdirSync(path);
    writeFileSync(join(path, 'inside.txt'), 'still here');
    await refusedWith(path, /is a directory, not a socket/);
    expect(readFileSync(join(path, 'inside.txt'), 'utf8')).toBe('still here');
  });

  it('[F11 transport-limits] a symlink to another program\'s socket is refused, and that socket keeps working', async () => {
    const other = join(dir, 'other-program.sock');
    const server = createServer((c) => c.end('still mine\n')).listen(other);
    await new Promise((resolve) => server.once('listening', resolve));
    const path = join(dir, 'agentd.sock');
    symlinkSync(other, path);
    await refusedWith(path, /is a symbolic link, not a socket/);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      connect(other).on('data', (b) => (text += b.toString())).once('close', () => resolve(text));
    });
    expect(answer).toBe('still mine\n');
    await new Promise((resolve) => server.close(resolve));
  });
});
