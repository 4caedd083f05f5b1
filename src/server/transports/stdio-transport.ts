import type { DaemonContext } from '../daemon-context.js';
import { serveConnection } from '../serve-connection.js';

/** Serves the client on the other end of stdin/stdout; resolves when stdin closes. */
export async function serveStdio(daemon: DaemonContext): Promise<void> {
  const { closed } = serveConnection(daemon, process.stdin, process.stdout, { kind: 'stdio' });
  await closed;
}
