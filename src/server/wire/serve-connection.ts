import type { Readable, Writable } from 'node:stream';
import { ClientConnection } from './client-connection.js';
import type { DaemonShell } from '../daemon-shell.js';
import { createDispatcher } from '../dispatch.js';
import { handlers } from '../handlers.js';
import type { OpenFrameChannel } from './framing/frame-channel.js';
import { FramedStream } from './framing/framed-stream.js';
import { JsonRpcConnection, type ConnectionLimits } from './json-rpc-connection.js';
import { stopUnfollowedTurns } from '../acp/stop-unfollowed-turns.js';

let nextConnection = 1;

export interface ServeOptions {
  /** The transport, for logs and for methods only some transports may call (`http`: the page's WebSocket). */
  kind: string;
  requireToken?: boolean;
  limits?: ConnectionLimits;
}

/** Serves one client over a byte stream pair; resolves when it disconnects. */
export function serveConnection(shell: DaemonShell, input: Readable, output: Writable, options: ServeOptions): { client: ClientConnection; closed: Promise<void> } {
  return serveChannel(shell, (handlers) => new FramedStream(input, output, options.limits?.maxFrameBytes ?? shell.maxFrameBytes, handlers), options);
}

/** Serves one client over a frame channel (a WebSocket): the same connection, dispatch and limits as a byte stream. */
export function serveChannel(shell: DaemonShell, open: OpenFrameChannel, options: ServeOptions): { client: ClientConnection; closed: Promise<void> } {
  const label = `${options.kind}#${nextConnection++}`;
  const rpc = new JsonRpcConnection(open, {
    label,
    maxFrameBytes: shell.maxFrameBytes,
    log: shell.log,
    ...options.limits,
  });
  const client = new ClientConnection(rpc, label, {
    transport: options.kind,
    requireToken: options.requireToken ?? false,
    onClosed: (followed) => stopUnfollowedTurns(followed, shell.clients),
  });
  rpc.setHandler(createDispatcher(handlers, client, shell));
  shell.clients.add(client);
  rpc.onClose(() => shell.clients.delete(client));
  const closed = new Promise<void>((resolve) => rpc.onClose(resolve));
  return { client, closed };
}
