import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { bridgeStdio } from '../bridge-stdio.js';
import { findOrStartDaemon } from '../daemon/find-or-start-daemon.js';

/**
 * `agentd acp`: for editors that can only spawn an agent over stdio. Pipes stdio to the
 * shared daemon's socket byte for byte, starting the daemon first when none runs, so
 * every editor shares one daemon and its sessions.
 */
export async function acpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { socket: { type: 'string' }, config: { type: 'string' } },
    strict: true,
  });
  const daemon = findOrStartDaemon(resolveAgentdPaths(process.env), {
    ...(values.socket ? { socket: values.socket } : {}),
    ...(values.config ? { config: values.config } : {}),
  });
  // Node makes its stdio streams on first use (~2 ms for a pipe): made while the daemon
  // starts or the probe waits, not after. Neither reads nor keeps the process alive yet.
  void process.stdin;
  void process.stdout;
  return bridgeStdio(await daemon);
}
