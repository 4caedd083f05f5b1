import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
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

/** Files stat'ed between yields to the event loop, so other sessions are not held up (about 10 ms). */
const STAT_BATCH = 2048;

/**
 * `paths` (relative to `cwd` or absolute) newest first, ties by path, dropping files that
 * vanished since rg listed them: what `rg --sortr modified` prints, for a listing made by
 * parallel rg. ripgrep 13 (Debian's) walks single-threaded when sorting and stats inside
 * its comparator: 1.6 s for 50,000 files on two cores, against 0.09 s to list them and
 * about 0.1 s to stat them once here (bench/RESULTS.md, "Tools").
 */
export async function sortNewestFirst(paths: readonly string[], cwd: string, signal: AbortSignal): Promise<string[]> {
  const keyed: Array<{ path: string; mtime: number }> = [];
  for (let i = 0; i < paths.length; i += 1) {
    if (i > 0 && i % STAT_BATCH === 0) {
      await yieldToEventLoop();
      if (signal.aborted) throw new ToolError('The search was aborted.');
    }
    const file = paths[i]!;
    const info = statSync(path.resolve(cwd, file), { throwIfNoEntry: false });
    if (info) keyed.push({ path: file, mtime: info.mtimeMs });
  }
  keyed.sort((a, b) => b.mtime - a.mtime || comparePathsLikeRipgrep(a.path, b.path));
  return keyed.map((entry) => entry.path);
}

/**
 * The order of `rg --sort path`: component by component (rg sorts each directory's
 * entries by name while walking), so `a/x` comes before `a.txt`. Replacing `/` with NUL,
 * which sorts before every other character, turns that into plain string order.
 */
export function comparePathsLikeRipgrep(a: string, b: string): number {
  const ka = a.replaceAll('/', '\0');
  const kb = b.replaceAll('/', '\0');
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
