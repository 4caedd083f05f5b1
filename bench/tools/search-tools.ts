import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { globTool } from '../../src/tools/builtin/glob.js';
import { grepTool } from '../../src/tools/builtin/grep.js';
import { ripgrepPath } from '../../src/tools/ripgrep-path.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { benchContext } from './bench-context.js';
import { round, timeInterleaved, type Timing } from './bench-stats.js';
import { generateTree } from './generate-tree.js';
import { runProcess } from './run-process.js';

/** One comparison: our tool call, and rg run directly for the same answer. */
interface SearchCase {
  name: string;
  tool: Tool<never>;
  args: Record<string, unknown>;
  /** rg as a user types it in the tree (a git repository, so .gitignore applies). */
  rgArgs: string[];
  /** rg with exactly the arguments our tool passes, so the difference is our own overhead. */
  rgSameArgs: string[];
}

/** Stands for the tree's absolute path in `rgSameArgs` (our tools pass absolute paths). */
const ROOT = '<root>';
const OURS = ['--no-require-git', '--no-config'];

const cases: SearchCase[] = [
  {
    name: 'grep TODO (content, many matches)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO' },
    rgArgs: ['--json', 'TODO'],
    rgSameArgs: [...OURS, '--json', '-e', 'TODO', '--', ROOT],
  },
  {
    name: 'grep FIXME_RARE_NEEDLE (content, few matches)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'FIXME_RARE_NEEDLE' },
    rgArgs: ['--json', 'FIXME_RARE_NEEDLE'],
    rgSameArgs: [...OURS, '--json', '-e', 'FIXME_RARE_NEEDLE', '--', ROOT],
  },
  {
    name: 'grep TODO, files mode (newest first)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO', mode: 'files' },
    rgArgs: ['--files-with-matches', 'TODO'],
    rgSameArgs: [...OURS, '--files-with-matches', '-e', 'TODO', '--', ROOT],
  },
  {
    name: 'grep TODO, count mode',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO', mode: 'count' },
    rgArgs: ['--count-matches', 'TODO'],
    rgSameArgs: [...OURS, '--count-matches', '--with-filename', '-e', 'TODO', '--', ROOT],
  },
  {
    name: 'grep TODO, glob *.py (content)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO', glob: '*.py' },
    rgArgs: ['--json', '-g', '*.py', 'TODO'],
    rgSameArgs: [...OURS, '--json', '--type-add', 'agentdglob:*.py', '--type', 'agentdglob', '-e', 'TODO', '--', ROOT],
  },
  {
    name: 'glob **/*.ts (many files, newest first)',
    tool: globTool as Tool<never>,
    args: { pattern: '**/*.ts' },
    rgArgs: ['--files', '-g', '*.ts'],
    rgSameArgs: [...OURS, '--files', '--type-add', 'agentdglob:*.ts', '--type', 'agentdglob'],
  },
  {
    name: 'glob pkg-3/src/**/*.md (path glob, newest first)',
    tool: globTool as Tool<never>,
    args: { pattern: 'pkg-3/src/**/*.md' },
    rgArgs: ['--files', '-g', 'pkg-3/src/**/*.md'],
    rgSameArgs: [...OURS, '--files', '--type-add', 'agentdglob:*.md', '--type', 'agentdglob'],
  },
];

/**
 * grep and glob over a generated tree of 50,000 files, side by side with ripgrep run
 * directly (issue 5's benchmark; goal: within 1.3× of rg). Prints a Markdown table and
 * one JSON line per case. `--files N`, `--runs N`, `--warmup N`, `--keep` (leave the
 * tree), `--tree DIR` (reuse a kept tree instead of generating one), `--only PREFIX`
 * (only the cases whose name starts with it, e.g. `glob`).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '50000' },
      runs: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '3' },
      keep: { type: 'boolean' },
      tree: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const reused = values.tree !== undefined;
  const root = realpathSync(values.tree ?? mkdtempSync(path.join(tmpdir(), 'agentd-bench-tree-')));
  try {
    const started = Date.now();
    if (!reused) {
      const tree = generateTree(root, Number(values.files));
      // A git repository, so plain `rg` honours .gitignore the way our tools do (they pass --no-require-git).
      execFileSync('git', ['init', '-q', root]);
      console.log(`tree: ${tree.files} files (${tree.ignoredFiles} ignored), ${(tree.bytes / 1e6).toFixed(1)} MB, generated in ${Date.now() - started} ms at ${root}`);
    } else console.log(`tree: reusing ${root}`);
    const rg = ripgrepPath();
    const rgVersion = execFileSync(rg, ['--version'], { encoding: 'utf8' }).split('\n')[0];
    console.log(`node ${process.version}, ${rgVersion} (${rg}), runs ${values.runs} after ${values.warmup} warm-up\n`);
    console.log('| case | ours median (p90) ms | rg median (p90) ms | ours / rg | rg, our exact args, median ms | ours / rg same args | result |');
    console.log('|---|---|---|---|---|---|---|');
    const ctx = benchContext(root);
    const records: unknown[] = [];
    for (const c of cases.filter((each) => values.only === undefined || each.name.startsWith(values.only))) {
      let last: ToolResult | undefined;
      const timings: Record<string, Timing> = await timeInterleaved(
        {
          ours: async () => {
            last = await c.tool.execute(c.args as never, ctx);
            if (last.isError) throw new Error(`${c.name}: ${JSON.stringify(last.content)}`);
          },
          rg: () => runProcess(rg, c.rgArgs, root),
          rgSame: () => runProcess(rg, c.rgSameArgs.map((arg) => (arg === ROOT ? root : arg)), root),
        },
        Number(values.runs),
        Number(values.warmup),
      );
      const ours = timings.ours!;
      const direct = timings.rg!;
      const same = timings.rgSame!;
      const text = last?.content[0]?.type === 'text' ? last.content[0].text : '';
      const summary = /\[([^\]]+)\]$/.exec(text)?.[1] ?? '';
      console.log(
        `| ${c.name} | ${ours.medianMs} (${ours.p90Ms}) | ${direct.medianMs} (${direct.p90Ms}) | ${ratio(ours, direct)}× | ${same.medianMs} | ${ratio(ours, same)}× | ${summary} |`,
      );
      records.push({ bench: 'tools-search', case: c.name, ours, rg: direct, rgSameArgs: same, oursOverRg: ratio(ours, direct), summary });
    }
    console.log('');
    for (const record of records) console.log(JSON.stringify(record));
  } finally {
    if (values.keep || reused) console.log(`tree kept at ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

function ratio(a: Timing, b: Timing): number {
  return round(a.medianMs / b.medianMs);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
