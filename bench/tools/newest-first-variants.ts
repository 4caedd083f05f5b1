import { realpathSync, stat, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { NewestFirst } from '../../src/tools/search/newest-first.js';
import { runRipgrep } from '../../src/tools/search/run-ripgrep.js';
import { summarise } from './bench-stats.js';

/** What each variant answers: the total listed and the newest `LIMIT`, newest first. */
type Answer = { total: number; first: string[] };

const LIMIT = 100;
/** What glob `**\/*.ts` runs (src/tools/builtin/glob.ts). */
const RG_ARGS = ['--files', '--type-add', 'agentdglob:*.ts', '--type', 'agentdglob'];

interface Entry {
  path: string;
  mtimeMs: number;
}

function newestOf(entries: Entry[]): string[] {
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return entries.slice(0, LIMIT).map((entry) => entry.path);
}

const signal = new AbortController().signal;
const list = (cwd: string, onLine: (line: string) => void): Promise<unknown> => runRipgrep(RG_ARGS, { cwd, signal }, onLine);

/** Ways to order rg's listing of `*.ts` newest first; every one must give the same answer. */
const variants: Record<string, (cwd: string) => Promise<Answer | undefined>> = {
  /** rg's listing alone, nothing ordered (the floor). */
  'listing only': async (cwd) => {
    await list(cwd, () => undefined);
    return undefined;
  },
  /** As before this change: statSync(path.resolve) per line, every file sorted at the end. */
  'statSync, path.resolve, sort all': async (cwd) => {
    const entries: Entry[] = [];
    await list(cwd, (line) => {
      const info = statSync(path.resolve(cwd, line), { throwIfNoEntry: false });
      if (info) entries.push({ path: line, mtimeMs: info.mtimeMs });
    });
    return { total: entries.length, first: newestOf(entries) };
  },
  'statSync, joined, sort all': async (cwd) => {
    const entries: Entry[] = [];
    await list(cwd, (line) => {
      const info = statSync(`${cwd}/${line}`, { throwIfNoEntry: false });
      if (info) entries.push({ path: line, mtimeMs: info.mtimeMs });
    });
    return { total: entries.length, first: newestOf(entries) };
  },
  /** What the tools do now. */
  'NewestFirst while rg walks': async (cwd) => {
    const newest = new NewestFirst(cwd, LIMIT);
    let total = 0;
    await list(cwd, (line) => {
      total += 1;
      newest.add(line);
    });
    return { total, first: newest.paths() };
  },
  'NewestFirst after rg exits': async (cwd) => {
    const lines: string[] = [];
    await list(cwd, (line) => lines.push(line));
    const newest = new NewestFirst(cwd, LIMIT);
    for (const line of lines) newest.add(line);
    return { total: lines.length, first: newest.paths() };
  },
  'fs.stat on the thread pool, 4 in flight, sort all': (cwd) => statOnPool(cwd, 4),
  'fs.stat on the thread pool, 32 in flight, sort all': (cwd) => statOnPool(cwd, 32),
};

/** Stats on libuv's thread pool while rg walks, at most `inFlight` at once. */
async function statOnPool(cwd: string, inFlight: number): Promise<Answer> {
  const entries: Entry[] = [];
  const waiting: string[] = [];
  let running = 0;
  let listed = false;
  let done: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => {
    done = resolve;
  });
  const start = (line: string): void => {
    running += 1;
    stat(`${cwd}/${line}`, (error, info) => {
      running -= 1;
      if (!error) entries.push({ path: line, mtimeMs: info.mtimeMs });
      const next = waiting.pop();
      if (next !== undefined) start(next);
      else if (listed && running === 0) done();
    });
  };
  await list(cwd, (line) => {
    if (running < inFlight) start(line);
    else waiting.push(line);
  });
  listed = true;
  if (running === 0) done();
  await allDone;
  return { total: entries.length, first: newestOf(entries) };
}

/**
 * Ways of ordering glob `**\/*.ts`'s listing (16,780 of the 50,000 files) newest first, on
 * a tree kept by search-tools.ts (`--tree DIR`), interleaved: median wall time and this
 * process's CPU time (every thread; rg's not included). All must answer alike.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { tree: { type: 'string' }, runs: { type: 'string', default: '21' }, warmup: { type: 'string', default: '2' } },
  });
  if (!values.tree) throw new Error('usage: newest-first-variants --tree KEPT_TREE [--runs N] [--warmup N]');
  const cwd = realpathSync(values.tree);
  const names = Object.keys(variants);
  const expected = JSON.stringify(await variants['statSync, path.resolve, sort all']!(cwd));
  for (const name of names.slice(1)) {
    if (JSON.stringify(await variants[name]!(cwd)) !== expected) throw new Error(`${name} answers differently`);
  }
  const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const name of names) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await variants[name]!(cwd);
      const elapsed = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      if (i < warmup) continue;
      wall[name]!.push(elapsed);
      cpu[name]!.push((used.user + used.system) / 1000);
    }
  }
  console.log(`runs ${runs} after ${warmup} warm-up; all variants gave the same answer\n`);
  console.log('| variant | median ms (p90) | CPU median ms |');
  console.log('|---|---|---|');
  for (const name of names) {
    const time = summarise(wall[name]!);
    console.log(`| ${name} | ${time.medianMs} (${time.p90Ms}) | ${summarise(cpu[name]!).medianMs} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
