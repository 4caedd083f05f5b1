import { execFile } from 'node:child_process';
import { wrapCommand } from './wrap-command.js';
import type { SandboxMounts } from './resolve-sandbox-mounts.js';

/** A short, read-only program agentd runs for itself inside the sandbox (git facts). */
export interface RunSandboxedOptions {
  argv: string[];
  cwd: string;
  mounts: SandboxMounts;
  /** The whole environment of the program (already allowlisted). */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Largest stdout kept, bytes; a longer output counts as a failure. */
  maxBuffer?: number;
}

/** What the program printed. */
export interface SandboxedOutput {
  stdout: string;
  stderr: string;
}

/**
 * Runs `argv` under bubblewrap without network and resolves with its output, or undefined
 * when it failed, timed out or printed too much. The timeout kills bwrap, and
 * `--die-with-parent` takes everything inside with it.
 */
export function runSandboxed(options: RunSandboxedOptions): Promise<SandboxedOutput | undefined> {
  const wrapped = wrapCommand('bubblewrap', { argv: options.argv, cwd: options.cwd, mounts: options.mounts, allowNetwork: false });
  return new Promise((resolve) => {
    execFile(
      wrapped.file,
      wrapped.args,
      { cwd: '/', env: options.env, timeout: options.timeoutMs, killSignal: 'SIGKILL', maxBuffer: options.maxBuffer ?? 16 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => resolve(error ? undefined : { stdout, stderr }),
    );
  });
}
