import type { DaemonShell } from '../../daemon-shell.js';
import { serveConnection } from '../serve-connection.js';

/** Serves the client on the other end of stdin/stdout; resolves when stdin closes. */
export async function serveStdio(shell: DaemonShell): Promise<void> {
  const { closed } = serveConnection(shell, process.stdin, process.stdout, { kind: 'stdio' });
  await closed;
}
