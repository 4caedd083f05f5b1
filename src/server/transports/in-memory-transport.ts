import { PassThrough } from 'node:stream';
import type { DaemonContext } from '../daemon-context.js';
import { serveConnection } from '../serve-connection.js';

/**
 * Serves a client over an in-process stream pair: `toDaemon` is what the client
 * writes, `fromDaemon` what it reads. For embedding and fast tests.
 */
export function serveInMemory(daemon: DaemonContext): { toDaemon: PassThrough; fromDaemon: PassThrough; closed: Promise<void> } {
  const toDaemon = new PassThrough();
  const fromDaemon = new PassThrough();
  const { closed } = serveConnection(daemon, toDaemon, fromDaemon, { kind: 'memory' });
  return { toDaemon, fromDaemon, closed };
}
