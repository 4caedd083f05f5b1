import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What generateTree wrote, for the benchmark's report. */
export interface GeneratedTree {
  /** Files written, ignored ones included. */
  files: number;
  /** Files under the ignored parts (`build/`, `*.log`), which grep and glob must skip. */
  ignoredFiles: number;
  /** Total bytes written. */
  bytes: number;
}

/** A small deterministic PRNG (mulberry32), so every run searches the same tree. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['const', 'value', 'return', 'function', 'import', 'export', 'handler', 'session', 'request', 'stream', 'buffer', 'config', 'result', 'await', 'error', 'index'];
const EXTENSIONS = ['ts', 'ts', 'ts', 'js', 'md', 'json', 'py', 'txt'];

/**
 * Writes `fileCount` files under `root` in nested directories (`pkg-N/src/mod-N/…`, up to
 * four levels), with mixed sizes (mostly 200 B – 4 KB, one in 50 around 64 KB, one in 1,000
 * around 512 KB), code-like lines, and two needles: `TODO` on about 1 line in 40 of 30 % of
 * the files (tens of thousands of matches) and `FIXME_RARE_NEEDLE` in one file in 200. A
 * root `.gitignore` excludes `build/` (a tenth of the files) and `*.log`.
 */
export function generateTree(root: string, fileCount = 50_000, seed = 42): GeneratedTree {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  writeFileSync(path.join(root, '.gitignore'), 'build/\n*.log\n');
  let bytes = 0;
  let ignoredFiles = 0;
  const made = new Set<string>();
  for (let i = 0; i < fileCount; i += 1) {
    const ignored = i % 10 === 9;
    const top = ignored ? 'build' : `pkg-${i % 20}`;
    const depth = 1 + (i % 4);
    const parts = [top, 'src', ...Array.from({ length: depth - 1 }, (_, d) => `mod-${(i >> (d + 3)) % 8}`)];
    const dir = path.join(root, ...parts);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const log = !ignored && i % 97 === 0;
    if (ignored || log) ignoredFiles += 1;
    const ext = log ? 'log' : pick(EXTENSIONS);
    const size = i % 1000 === 500 ? 512 * 1024 : i % 50 === 25 ? 64 * 1024 : 200 + Math.floor(next() * 3800);
    const content = fileContent(size, next() < 0.3, i % 200 === 7, next, pick);
    writeFileSync(path.join(dir, `file-${i}.${ext}`), content);
    bytes += content.length;
  }
  return { files: fileCount, ignoredFiles, bytes };
}

function fileContent(size: number, todos: boolean, rare: boolean, next: () => number, pick: <T>(items: readonly T[]) => T): string {
  const lines: string[] = [];
  let length = 0;
  while (length < size) {
    const words = Array.from({ length: 3 + Math.floor(next() * 9) }, () => pick(WORDS));
    if (todos && next() < 0.025) words.push('// TODO: tidy this up');
    if (rare && lines.length === 3) words.push('FIXME_RARE_NEEDLE');
    const line = `${'  '.repeat(Math.floor(next() * 4))}${words.join(' ')};`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}
