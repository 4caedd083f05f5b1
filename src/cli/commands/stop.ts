import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { findRunningDaemon } from '../daemon/find-running-daemon.js';

const DEFAULT_STOP_TIMEOUT_MS = 30_000;

/**
 * `agentd stop`: SIGTERM to the pid the owner of the data directory recorded, then waits
 * until it has let go of the directory. The daemon shuts down as on any SIGTERM: running
 * turns stopped (their partial answers stored), MCP servers stopped, the store closed.
 */
export async function stopCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'timeout-ms': { type: 'string' } }, strict: true });
  const timeoutMs = values['timeout-ms'] === undefined ? DEFAULT_STOP_TIMEOUT_MS : Number(values['timeout-ms']);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`agentd stop: --timeout-ms must be a whole number of milliseconds above 0, not "${values['timeout-ms']}"`);
  }
  const { dataDir } = resolveAgentdPaths(process.env);
  const found = findRunningDaemon(dataDir);
  if (found.kind === 'none') {
    process.stdout.write(`agentd is not running (data directory ${dataDir}): nothing to stop\n`);
    return 0;
  }
  const pid = found.owner?.pid;
  if (pid === undefined) {
    throw new Error(`agentd stop: a daemon owns ${dataDir} but has not recorded its pid yet (it is starting); run agentd stop again in a moment`);
  }
  try {
    process.kill(pid, 'SIGTERM');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH') throw new Error(`agentd stop: cannot signal the daemon (pid ${pid}): ${code ?? (error as Error).message}; is it another user's?`);
  }
  const deadline = Date.now() + timeoutMs;
  while (findRunningDaemon(dataDir).kind === 'running') {
    if (Date.now() > deadline) {
      throw new Error(
        `agentd stop: the daemon (pid ${pid}) did not stop within ${timeoutMs} ms; wait longer with --timeout-ms, or end it at once with kill -9 ${pid} (its running turns are then marked interrupted)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.stdout.write(`stopped agentd (pid ${pid})\n`);
  return 0;
}
