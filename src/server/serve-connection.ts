import type { Readable, Writable } from 'node:stream';
import { ClientConnection } from './client-connection.js';
import type { DaemonContext } from './daemon-context.js';
import { createDispatcher } from './dispatch.js';
import { handlers } from './handlers.js';
import { JsonRpcConnection } from './json-rpc-connection.js';

export const DEFAULT_MAX_FRAME_BYTES = 32 * 1024 * 1024;

let nextConnection = 1;

/** Serves one client over a byte stream pair; resolves when it disconnects. */
export function serveConnection(
  daemon: DaemonContext,
  input: Readable,
  output: Writable,
  options: { kind: string; requireToken?: boolean },
): { client: ClientConnection; closed: Promise<void> } {
  const label = `${options.kind}#${nextConnection++}`;
  const rpc = new JsonRpcConnection(input, output, {
    label,
    maxFrameBytes: daemon.config.server?.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    log: daemon.log,
  });
  const client = new ClientConnection(rpc, label, { requireToken: options.requireToken ?? false });
  rpc.setHandler(createDispatcher(handlers, client, daemon));
  daemon.clients.add(client);
  rpc.onClose(() => daemon.clients.delete(client));
  const closed = new Promise<void>((resolve) => rpc.onClose(resolve));
  return { client, closed };
}
