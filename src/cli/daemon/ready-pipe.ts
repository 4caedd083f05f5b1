import { closeSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * How a daemon started on demand tells its starter it listens: the starter gives it a pipe
 * as file descriptor 3 and names that descriptor in this variable; the daemon writes one
 * line there once its socket accepts connections and closes it. The starter learns it at
 * once instead of probing the socket, and the pipe's end with no line says the daemon
 * stopped before serving.
 */
export const READY_FD_ENV = 'AGENTD_READY_FD';

/** The descriptor a starter hands the daemon (spawn's stdio[3]). */
export const READY_FD = 3;

const READY_LINE = 'listening\n';

/**
 * Takes the descriptor named in the environment, if any, and removes the variable, so that
 * the daemon's own children (tools, MCP servers) neither see it nor write to that number.
 */
export function takeReadyFd(env: NodeJS.ProcessEnv): number | undefined {
  const value = env[READY_FD_ENV];
  delete env[READY_FD_ENV];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * Says the daemon listens, then closes the descriptor: a child spawned later would
 * otherwise inherit it and keep the starter's pipe open. A starter that has gone (EPIPE)
 * is no error of the daemon's.
 */
export function signalReady(fd: number): void {
  try {
    writeSync(fd, READY_LINE);
  } catch {
    // The starter gave up or exited: the daemon serves whoever connects next.
  }
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/**
 * Resolves `listening` once the daemon wrote its line, `ended` when the pipe closed
 * without it (the daemon stopped before serving), `timeout` after `timeoutMs`.
 */
export function awaitReady(pipe: Readable, timeoutMs: number): Promise<'listening' | 'ended' | 'timeout'> {
  return new Promise((resolve) => {
    let text = '';
    const done = (outcome: 'listening' | 'ended' | 'timeout'): void => {
      clearTimeout(timer);
      pipe.removeAllListeners('data');
      pipe.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    pipe.setEncoding('utf8');
    pipe.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes(READY_LINE)) done('listening');
    });
    pipe.once('end', () => done('ended'));
    pipe.once('error', () => done('ended'));
  });
}
