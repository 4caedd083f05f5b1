import { connect, type Socket } from 'node:net';
import type { WireMessage } from './rpc-peer.js';

/**
 * A client that writes whatever bytes a test gives it (malformed ones included) and parses
 * what the daemon answers, in either framing: NDJSON lines, or `Content-Length` frames
 * when the daemon answers in those.
 */
export interface RawSocketClient {
  socket: Socket;
  /** Every message the daemon sent, in order. */
  messages: WireMessage[];
  /** Settles when the daemon (or the test) closes the connection. */
  closed: Promise<void>;
  isClosed(): boolean;
  write(bytes: Buffer | string): Promise<void>;
}

export async function connectRaw(socketPath: string): Promise<RawSocketClient> {
  const socket = connect(socketPath);
  const messages: WireMessage[] = [];
  let buffer: Buffer = Buffer.alloc(0);
  let closedFlag = false;
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    buffer = takeMessages(buffer, messages);
  });
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedFlag = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    isClosed: () => closedFlag,
    // A write to a connection the daemon already closed is part of what some tests do.
    write: (bytes) => new Promise((resolve) => socket.write(bytes, () => resolve())),
  };
}

/** Moves every whole message out of `buffer` into `into`; returns the rest. */
function takeMessages(buffer: Buffer, into: WireMessage[]): Buffer {
  for (;;) {
    if (buffer.subarray(0, 15).toString('ascii').toLowerCase().startsWith('content-length')) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return buffer;
      const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))![1]);
      if (buffer.length < end + 4 + length) return buffer;
      into.push(parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8')));
      buffer = buffer.subarray(end + 4 + length);
      continue;
    }
    const lf = buffer.indexOf(0x0a);
    if (lf < 0) return buffer;
    const line = buffer.subarray(0, lf).toString('utf8').trim();
    buffer = buffer.subarray(lf + 1);
    if (line !== '') into.push(parse(line));
  }
}

/** A message; text that is not JSON becomes a marker message so the test fails on it, naming it. */
function parse(text: string): WireMessage {
  try {
    return JSON.parse(text) as WireMessage;
  } catch {
    return { method: 'test/unparseable-daemon-output', params: text };
  }
}
