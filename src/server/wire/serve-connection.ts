import type { Readable, Writable } from 'node:stream';
import { ClientConnection } from './client-connection.js';
import type { DaemonShell } from '../daemon-shell.js';
import { createDispatcher } from '../dispatch.js';
import { handlers } from '../handlers.js';
import { JsonRpcConnection, type ConnectionLimits } from './json-rpc-connection.js';
import { stopUnfollowedTurns } from '../acp/stop-unfollowed-turns.js';

let nextConnection = 1;

/** Serves one client over a byte stream pair; resolves when it disconnects. */
export function serveConnection(
  shell: DaemonShell,
  input: Readable,
  output: Writable,
  options: { kind: string; requireToken?: boolean; limits?: ConnectionLimits },
): { client: ClientConnection; closed: Promise<void> } {
  const label = `${options.kind}#${nextConnection++}`;
  const rpc = new JsonRpcConnection(input, output, {
    label,
    maxFrameBytes: shell.maxFrameBytes,
    log: shell.log,
    ...options.limits,
  });
  const client = new ClientConnection(rpc, label, {
    requireToken: options.requireToken ?? false,
    onClosed: (followed) => stopUnfollowedTurns(followed, shell.clients),
  });
  rpc.setHandler(createDispatcher(handlers, client, shell));
  shell.clients.add(client);
  rpc.onClose(() => shell.clients.delete(client));
  const closed = new Promise<void>((resolve) => rpc.onClose(resolve));
  return { client, closed };
}
