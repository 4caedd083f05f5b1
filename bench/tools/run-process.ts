import { spawn } from 'node:child_process';

/** Runs a program to completion, draining stdout (bytes counted, not kept) as a plain consumer would. */
export function runProcess(file: string, args: string[], cwd: string): Promise<{ code: number | null; stdoutBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdoutBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdoutBytes }));
  });
}
