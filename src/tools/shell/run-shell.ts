import { spawn } from 'node:child_process';
import { killProcessGroup } from './kill-process-group.js';
import type { WrappedCommand } from '../sandbox/wrap-command.js';

/** Time given to trailing output after the shell exits, before lingering children are stopped. */
const LINGER_MS = 200;
/** Between SIGTERM and SIGKILL when stopping the group. */
const KILL_GRACE_MS = 1000;

/** How a shell run ended. */
export interface ShellExit {
  /** The shell's exit code; null when it was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: NodeJS.Signals | null;
  /** Ended because the timeout passed. */
  timedOut: boolean;
  /** Ended because the signal aborted. */
  aborted: boolean;
}

/** What to run and how. */
export interface RunShellOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives stdout and stderr, interleaved as written, decoded as UTF-8. */
  onOutput(text: string): void;
}

/**
 * Runs a (possibly sandboxed) command in its own process group (`detached: true`) with
 * stdout and stderr on one pipe (`/bin/sh -c 'exec "$@" 2>&1'` execs the command with
 * fd 2 duplicated from fd 1, so the order is exactly as written). stdin is /dev/null.
 * On timeout or abort the whole group is stopped. When the shell exits while a background
 * child still holds the pipe (`sleep 100 &`), the call ends anyway: trailing output gets
 * a moment, then the group is stopped and the pipe closed.
 */
export function runShell(command: WrappedCommand, options: RunShellOptions): Promise<ShellExit> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', command.file, ...command.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let pipeClosed = false;
    let settled = false;
    let lingerTimer: NodeJS.Timeout | undefined;

    const stop = (): void => {
      if (pid !== undefined) void killProcessGroup(pid, KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    const settle = (): void => {
      if (settled || !exit) return;
      settled = true;
      clearTimeout(timer);
      if (lingerTimer) clearTimeout(lingerTimer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ exitCode: exit.code, signal: exit.signal, timedOut, aborted });
    };

    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => options.onOutput(chunk));
    }
    child.stdout.on('close', () => {
      pipeClosed = true;
      settle();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (pipeClosed) {
        settle();
        return;
      }
      lingerTimer = setTimeout(() => {
        // A background child still holds the pipe: stop the group, stop reading.
        stop();
        child.stdout.destroy();
        child.stderr.destroy();
        settle();
      }, LINGER_MS);
    });
  });
}
