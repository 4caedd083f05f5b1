import { PassThrough } from 'node:stream';
import type { DaemonShell } from '../daemon-shell.js';
import { serveConnection } from '../serve-connection.js';

/**
 * Serves a client over an in-process stream pair: `toDaemon` is what the client
 * writes, `fromDaemon` what it reads. For embedding and fast tests.
 */
export function serveInMemory(shell: DaemonShell): { toDaemon: PassThrough; fromDaemon: PassThrough; closed: Promise<void> } {
  const toDaemon = new PassThrough();
  const fromDaemon = new PassThrough();
  const { closed } = serveConnection(shell, toDaemon, fromDaemon, { kind: 'memory' });
  return { toDaemon, fromDaemon, closed };
}
