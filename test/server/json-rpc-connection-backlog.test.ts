import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonRpcConnection } from '../../src/server/json-rpc-connection.js';

/** A peer's socket that takes nothing until `startReading()`: each write's callback waits until then. */
class PeerSocket extends Writable {
  private reading = false;
  private readonly held: Array<() => void> = [];
  override _write(_chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    if (this.reading) setImmediate(callback);
    else this.held.push(callback);
  }
  startReading(): void {
    this.reading = true;
    for (const callback of this.held.splice(0)) callback();
  }
  stopReading(): void {
    this.reading = false;
  }
}

function connectionTo(socket: PeerSocket, stallMs = 5000): JsonRpcConnection {
  const connection = new JsonRpcConnection(new PassThrough(), socket, { label: 'test', maxFrameBytes: 1024, backlogBytes: 64 * 1024, stallMs });
  connection.setHandler({ request: async () => null, notification() {} });
  return connection;
}

/** Queues about `bytes` of notifications for the peer. */
function flood(connection: JsonRpcConnection, bytes: number): void {
  const text = 'x'.repeat(1000);
  for (let sent = 0; sent < bytes; sent += text.length) connection.notify('session/update', { text });
}

describe('JsonRpcConnection.backlog', () => {
  it('has none while the queued output stays under the limit', () => {
    const connection = connectionTo(new PeerSocket());
    flood(connection, 32 * 1024);
    expect(connection.backlog()).toBeUndefined();
  });

  it('holds back while a reading peer catches up, and lets go once its queue is written', async () => {
    const socket = new PeerSocket();
    const connection = connectionTo(socket);
    flood(connection, 256 * 1024);
    const backlog = connection.backlog();
    expect(backlog).toBeInstanceOf(Promise);
    // One wait per backlog, however many streams ask.
    expect(connection.backlog()).toBe(backlog);
    let caughtUp = false;
    void backlog!.then(() => (caughtUp = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(caughtUp).toBe(false);
    socket.startReading();
    await backlog;
    expect(connection.backlog()).toBeUndefined();
  });

  it('stops holding back for a peer that stopped reading, and does again once it reads', async () => {
    const socket = new PeerSocket();
    const connection = connectionTo(socket, 50);
    flood(connection, 256 * 1024);
    const started = Date.now();
    await connection.backlog();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Still queued, but the peer counts as not reading: nothing waits on it now.
    flood(connection, 64 * 1024);
    expect(connection.backlog()).toBeUndefined();

    const drained = new Promise((resolve) => socket.once('drain', resolve));
    socket.startReading();
    await drained;
    socket.stopReading();
    flood(connection, 256 * 1024);
    expect(connection.backlog()).toBeInstanceOf(Promise);
  });

  it('lets go when the connection closes', async () => {
    const socket = new PeerSocket();
    const connection = connectionTo(socket);
    flood(connection, 256 * 1024);
    const backlog = connection.backlog()!;
    socket.destroy();
    await backlog;
    expect(connection.backlog()).toBeUndefined();
  });
});
