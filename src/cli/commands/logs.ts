import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { findRunningDaemon } from '../daemon/find-running-daemon.js';

/** How often `-f` looks for new lines. */
const FOLLOW_POLL_MS = 200;

/**
 * `agentd logs [-f]`: prints the daemon's log file, `daemon.log` in the log directory
 * (where a daemon started on demand writes); `-f` then prints what is appended, as
 * `tail -f` does, until Ctrl-C. A daemon started by `agentd serve` logs to its stderr
 * instead, which this says.
 */
export async function logsCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { follow: { type: 'boolean', short: 'f' } }, strict: true });
  const paths = resolveAgentdPaths(process.env);
  const found = findRunningDaemon(paths.dataDir);
  const owner = found.kind === 'running' ? found.owner : undefined;
  const file = owner?.logFile ?? join(paths.logDir, 'daemon.log');
  if (owner && owner.logFile === null) {
    process.stderr.write(`agentd logs: the running daemon (pid ${owner.pid}) was started by \`agentd serve\` and logs to its stderr; ${file} holds what daemons started on demand wrote\n`);
  }
  if (!existsSync(file) && !values.follow) {
    throw new Error(`agentd logs: no daemon log at ${file} yet; a daemon started on demand (agentd acp) writes there, one started by \`agentd serve\` logs to its stderr`);
  }
  // A reader that went away (`agentd logs | head`) ends the command quietly.
  process.stdout.on('error', () => process.exit(0));
  let offset = await copyFrom(file, 0);
  if (!values.follow) return 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    // Truncated or replaced by a shorter file: start over from its beginning, as tail -F does.
    if (existsSync(file) && statSync(file).size < offset) offset = 0;
    offset = await copyFrom(file, offset);
  }
}

/** Writes the file's bytes from `offset` to stdout; returns the offset after them. */
async function copyFrom(file: string, offset: number): Promise<number> {
  if (!existsSync(file)) return offset;
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      // A new buffer each time: stdout may still hold the last one while it writes.
      const buffer = Buffer.alloc(64 * 1024);
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      if (read === 0) return offset;
      offset += read;
      // Waits for stdout to take it, so a slow reader does not make this buffer the whole file.
      if (!process.stdout.write(buffer.subarray(0, read))) await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
  } finally {
    closeSync(fd);
  }
}
