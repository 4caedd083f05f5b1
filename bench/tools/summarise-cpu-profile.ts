import { readFileSync } from 'node:fs';

/** The parts of V8's .cpuprofile (what `node --cpu-prof` writes) read here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  /** Microseconds on the monotonic clock (CLOCK_MONOTONIC, as process.hrtime in any process). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time of a `node --cpu-prof` profile summed by function and by file, largest first:
 * `node dist/bench/tools/summarise-cpu-profile.js FILE.cpuprofile [top] [--from US --to US]`.
 * `--from`/`--to` keep the samples of a window, in microseconds of the monotonic clock
 * (first-prompt.ts prints such marks: the window between a request and what it caused).
 */
function main(): void {
  const args = process.argv.slice(2);
  const option = (name: string): number | undefined => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : Number(args.splice(at, 2)[1]);
  };
  const from = option('--from') ?? -Infinity;
  const to = option('--to') ?? Infinity;
  const [file, topArg] = args;
  if (!file) throw new Error('usage: summarise-cpu-profile FILE.cpuprofile [top] [--from US --to US]');
  const top = Number(topArg ?? 30);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < from || at > to) return;
    total += us;
    const frame = byId.get(id)!.callFrame;
    const where = shortUrl(frame.url);
    const fn = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byFile.set(where, (byFile.get(where) ?? 0) + us);
  });
  const print = (title: string, table: Map<string, number>): void => {
    console.log(`\n${title} (self time, of ${(total / 1000).toFixed(0)} ms sampled)`);
    for (const [name, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  };
  print('by function', byFunction);
  print('by file', byFile);
}

/** A file URL shortened to what follows node_modules/ or dist/, or the builtin's name. */
function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const at = Math.max(url.lastIndexOf('node_modules/'), url.lastIndexOf('/dist/'));
  return at >= 0 ? url.slice(url.indexOf('/', at) + 1) : url.replace(/^file:\/\//, '');
}

main();
