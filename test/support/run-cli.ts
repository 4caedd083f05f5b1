import { CLI } from './daemon-process.js';
import { runProcess, type ProcessResult } from './run-process.js';

/** What a finished `agentd` command printed and how it exited. */
export type CliResult = ProcessResult;

/** Runs the built `agentd` CLI with `args` to completion; stdin is `stdin` or empty. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string; stdin?: string } = {}): Promise<CliResult> {
  return runProcess(process.execPath, [CLI, ...args], { env, stdin: options.stdin ?? '', ...(options.cwd ? { cwd: options.cwd } : {}) });
}
