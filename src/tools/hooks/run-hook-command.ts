import { spawn } from 'node:child_process';
import { killProcessGroup } from '../shell/kill-process-group.js';

/** How a hook command ended. */
export interface HookCommandOutcome {
  /** Exit code; null when killed by a signal or never started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Stopped because it ran past its timeout. */
  timedOut: boolean;
  /** Why it could not be started (e.g. bash missing, cwd gone). */
  spawnError?: string;
}

/** Output kept per stream; a hook that prints more is cut, not buffered without end. */
const MAX_OUTPUT = 1024 * 1024;
/** Time trailing output gets after the shell exits. */
const LINGER_MS = 100;

/**
 * Runs a hook: `bash -c COMMAND` in `cwd`, in its own process group, with `input` on
 * stdin and stdout and stderr collected separately (the Claude Code hook convention,
 * https://docs.anthropic.com/en/docs/claude-code/hooks#hook-input-and-output). Past the
 * timeout the whole group is stopped. Never rejects. `--norc` because Node's stdio
 * pipes are socketpairs, which bash takes for an ssh session and would otherwise
 * source ~/.bashrc into every hook (and its noise into stderr, the block reason).
 */
export function runHookCommand(
  command: string,
  options: { cwd: string; input: string; timeoutMs: number; env: NodeJS.ProcessEnv },
): Promise<HookCommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    let lingerTimer: NodeJS.Timeout | undefined;
    const stopGroup = (): void => {
      if (child.pid !== undefined) void killProcessGroup(child.pid, 500);
    };
    const settle = (outcome: HookCommandOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(lingerTimer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += text;
    });
    child.on('error', (error) => settle({ exitCode: null, stdout, stderr, timedOut: false, spawnError: error.message }));
    child.on('close', (code) => settle({ exitCode: code, stdout, stderr, timedOut }));
    child.on('exit', (code) => {
      // A background child still holding the pipes must not keep the tool call waiting.
      lingerTimer = setTimeout(() => {
        stopGroup();
        settle({ exitCode: code, stdout, stderr, timedOut });
      }, LINGER_MS);
    });
    // A hook that does not read its stdin must not crash the daemon with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}
