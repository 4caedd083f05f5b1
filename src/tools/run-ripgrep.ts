import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ripgrepPath } from './ripgrep-path.js';
import { ToolError } from './tool-error.js';

/** How rg ended. */
export interface RipgrepExit {
  /** 0: matches, 1: no matches, 2: an error (possibly with partial results). */
  exitCode: number;
  /** What rg wrote on stderr (unreadable files, bad patterns). */
  stderr: string;
}

/**
 * Runs ripgrep as a child process and hands each stdout line to `onLine`; the child is
 * killed when `signal` aborts. `--no-require-git` makes rg honour .gitignore files even
 * outside a git repository (rg ≥ 11), as users expect from a workspace.
 */
export function runRipgrep(
  args: string[],
  options: { cwd: string; signal: AbortSignal; env?: NodeJS.ProcessEnv },
  onLine: (line: string) => void,
): Promise<RipgrepExit> {
  const rg = ripgrepPath();
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new ToolError('The search was aborted.'));
      return;
    }
    const child = spawn(rg, ['--no-require-git', '--no-config', ...args], {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', onLine);
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not run ripgrep (${rg}): ${error.message}`));
    });
    // 'close' (not 'exit') so every stdout line has been delivered first.
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) reject(new ToolError('The search was aborted.'));
      else resolve({ exitCode: code ?? 2, stderr: stderr.trim() });
    });
  });
}
