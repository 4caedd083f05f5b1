import { realpathSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { globTool } from '../../src/tools/builtin/glob.js';
import { grepTool } from '../../src/tools/builtin/grep.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { benchContext } from './bench-context.js';
import { round, summarise } from './bench-stats.js';

/** The newest-first cases of search-tools.ts, where the glob and grep files-mode changes show. */
const cases: Array<{ name: string; tool: 'glob' | 'grep'; args: Record<string, unknown> }> = [
  { name: 'glob **/*.ts', tool: 'glob', args: { pattern: '**/*.ts' } },
  { name: 'glob pkg-3/src/**/*.md', tool: 'glob', args: { pattern: 'pkg-3/src/**/*.md' } },
  { name: 'grep TODO, files mode', tool: 'grep', args: { pattern: 'TODO', mode: 'files' } },
];

/**
 * Our glob and grep tools as built now against another build of them (`--before DIR`, the
 * `dist` directory of an older checkout built with `npx tsc -b`), on a tree kept by
 * search-tools.ts (`--tree DIR`). Interleaved runs; wall time and this process's CPU time
 * (user + system, every thread, rg not included), medians. Checks both give the same text.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      before: { type: 'string' },
      tree: { type: 'string' },
      runs: { type: 'string', default: '21' },
      warmup: { type: 'string', default: '3' },
    },
  });
  if (!values.before || !values.tree) throw new Error('usage: search-tools-ab --before OLD_DIST_DIR --tree KEPT_TREE [--runs N] [--warmup N]');
  const before = await loadTools(values.before);
  const after = { glob: globTool as Tool<never>, grep: grepTool as Tool<never> };
  const ctx = benchContext(realpathSync(values.tree));
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  console.log(`before: ${values.before}, runs ${runs} after ${warmup} warm-up\n`);
  console.log('| case | before median ms | after median ms | after / before | before CPU ms | after CPU ms | output |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const builds = { before: before[c.tool], after: after[c.tool] };
    const same = textOf(await builds.before.execute(c.args as never, ctx)) === textOf(await builds.after.execute(c.args as never, ctx));
    const wall = { before: [] as number[], after: [] as number[] };
    const cpu = { before: [] as number[], after: [] as number[] };
    for (let i = 0; i < warmup + runs; i += 1) {
      for (const build of ['before', 'after'] as const) {
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        await builds[build].execute(c.args as never, ctx);
        const elapsed = performance.now() - start;
        const used = process.cpuUsage(cpuStart);
        if (i < warmup) continue;
        wall[build].push(elapsed);
        cpu[build].push((used.user + used.system) / 1000);
      }
    }
    const [b, a] = [summarise(wall.before).medianMs, summarise(wall.after).medianMs];
    const [cb, ca] = [summarise(cpu.before).medianMs, summarise(cpu.after).medianMs];
    console.log(`| ${c.name} | ${b} | ${a} | ${round(a / b)}× | ${cb} | ${ca} | ${same ? 'identical' : 'DIFFERENT'} |`);
  }
}

async function loadTools(dist: string): Promise<{ glob: Tool<never>; grep: Tool<never> }> {
  const load = async (file: string, name: string): Promise<Tool<never>> => {
    const module = (await import(pathToFileURL(path.resolve(dist, 'src/tools/builtin', file)).href)) as Record<string, Tool<never>>;
    const tool = module[name];
    if (!tool) throw new Error(`${dist}: no ${name} in ${file}`);
    return tool;
  };
  return { glob: await load('glob.js', 'globTool'), grep: await load('grep.js', 'grepTool') };
}

function textOf(result: ToolResult): string {
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
