import { spawn } from 'node:child_process';
import { CLI } from './daemon-process.js';

/** What a finished `agentd` command printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `agentd` CLI with `args` to completion; stdin is `stdin` or empty. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string; stdin?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: 'pipe', ...(options.cwd ? { cwd: options.cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin);
  });
}
