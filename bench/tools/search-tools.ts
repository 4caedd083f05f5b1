import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GLOB_MAX_RESULTS, globTool } from '../../src/tools/builtin/glob.js';
import { GREP_MAX_RESULTS, grepTool } from '../../src/tools/builtin/grep.js';
import { ripgrepPath } from '../../src/tools/search/ripgrep-path.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { benchContext } from './bench-context.js';
import { round, timeInterleaved, type Timing } from './bench-stats.js';
import { generateTree } from './generate-tree.js';
import { rgListing, rgThenNewestFirst, sameListing, shownListing } from './rg-newest-first.js';
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
  /**
   * For newest-first results: `rgArgs`' listing ordered as ours (rgThenNewestFirst), the
   * first `limit` checked equal to ours once, and optionally rg ordering it itself
   * (`--sortr modified`), which rg 13 does per directory only (its order is checked too).
   */
  ordered?: { limit: number; rgSortedArgs?: string[] };
  /** What the goal (1.3×) is measured against: rg alone, or rg's listing plus the same ordering. */
  goal: 'rg' | 'ordered';
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
    goal: 'rg',
  },
  {
    name: 'grep FIXME_RARE_NEEDLE (content, few matches)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'FIXME_RARE_NEEDLE' },
    rgArgs: ['--json', 'FIXME_RARE_NEEDLE'],
    rgSameArgs: [...OURS, '--json', '-e', 'FIXME_RARE_NEEDLE', '--', ROOT],
    goal: 'rg',
  },
  {
    name: 'grep TODO, files mode (newest first)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO', mode: 'files' },
    rgArgs: ['--files-with-matches', 'TODO'],
    rgSameArgs: [...OURS, '--files-with-matches', '-e', 'TODO', '--', ROOT],
    ordered: { limit: GREP_MAX_RESULTS },
    goal: 'rg',
  },
  {
    name: 'grep TODO, count mode',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO', mode: 'count' },
    rgArgs: ['--count-matches', 'TODO'],
    rgSameArgs: [...OURS, '--count-matches', '--with-filename', '-e', 'TODO', '--', ROOT],
    goal: 'rg',
  },
  {
    name: 'grep TODO, glob *.py (content)',
    tool: grepTool as Tool<never>,
    args: { pattern: 'TODO', glob: '*.py' },
    rgArgs: ['--json', '-g', '*.py', 'TODO'],
    rgSameArgs: [...OURS, '--json', '--type-add', 'agentdglob:*.py', '--type', 'agentdglob', '-e', 'TODO', '--', ROOT],
    goal: 'rg',
  },
  {
    name: 'glob **/*.ts (many files, newest first)',
    tool: globTool as Tool<never>,
    args: { pattern: '**/*.ts' },
    rgArgs: ['--files', '-g', '*.ts'],
    rgSameArgs: [...OURS, '--files', '--type-add', 'agentdglob:*.ts', '--type', 'agentdglob'],
    ordered: { limit: GLOB_MAX_RESULTS, rgSortedArgs: ['--files', '--sortr', 'modified', '-g', '*.ts'] },
    goal: 'ordered',
  },
  {
    name: 'glob pkg-3/src/**/*.md (path glob, newest first)',
    tool: globTool as Tool<never>,
    args: { pattern: 'pkg-3/src/**/*.md' },
    rgArgs: ['--files', '-g', 'pkg-3/src/**/*.md'],
    rgSameArgs: [...OURS, '--files', '--type-add', 'agentdglob:*.md', '--type', 'agentdglob'],
    ordered: { limit: GLOB_MAX_RESULTS, rgSortedArgs: ['--files', '--sortr', 'modified', '-g', 'pkg-3/src/**/*.md'] },
    goal: 'ordered',
  },
];

/** Everything measured for one case. */
interface CaseRecord {
  name: string;
  ours: Timing;
  rg: Timing;
  rgSameArgs: Timing;
  /** rg's listing plus the same ordering (rgThenNewestFirst), for newest-first cases. */
  rgOrdered?: Timing;
  /** rg ordering its listing itself (`--sortr modified`), and whether its first files are ours. */
  rgSorted?: Timing & { sameOrder: boolean };
  goal: SearchCase['goal'];
  summary: string;
}

/**
 * grep and glob over a generated tree of 50,000 files, side by side with ripgrep run
 * directly (the search tools benchmark). Goal: within 1.3× of rg, and for glob, within 1.3× of
 * rg's listing plus the same newest-first ordering. Prints a Markdown table and one JSON
 * line per case. `--files N`, `--runs N`, `--warmup N`, `--keep` (leave the tree),
 * `--tree DIR` (reuse a kept tree instead of generating one), `--only PREFIX` (only the
 * cases whose name starts with it, e.g. `glob`).
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
    console.log(
      '| case | ours median (p90) ms | rg median (p90) ms | ours / rg | rg, our exact args, median ms | ours / that | ' +
        'rg + same order, median (p90) ms | ours / that | rg --sortr modified, median ms (same order?) | goal (1.3×) | result |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    const records: CaseRecord[] = [];
    for (const c of cases.filter((each) => values.only === undefined || each.name.startsWith(values.only))) {
      const record = await measure(c, root, rg, Number(values.runs), Number(values.warmup));
      console.log(row(record));
      records.push(record);
    }
    console.log('');
    for (const { name, ...record } of records) console.log(JSON.stringify({ bench: 'tools-search', case: name, ...record }));
  } finally {
    if (values.keep || reused) console.log(`tree kept at ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

/** Checks the baselines give our answer (once), then times every contender interleaved. */
async function measure(c: SearchCase, root: string, rg: string, runs: number, warmup: number): Promise<CaseRecord> {
  const ctx = benchContext(root);
  const ours = async (): Promise<ToolResult> => {
    const result = await c.tool.execute(c.args as never, ctx);
    if (result.isError) throw new Error(`${c.name}: ${JSON.stringify(result.content)}`);
    return result;
  };
  const text = textOf(await ours());
  const contenders: Record<string, () => Promise<unknown>> = {
    ours,
    rg: () => runProcess(rg, c.rgArgs, root),
    rgSame: () => runProcess(rg, c.rgSameArgs.map((arg) => (arg === ROOT ? root : arg)), root),
  };
  let sameOrder = false;
  if (c.ordered) {
    const { limit, rgSortedArgs } = c.ordered;
    const shown = shownListing(text);
    // An honest baseline gives exactly our answer: same files, same order, same total.
    if (!sameListing(await rgThenNewestFirst(rg, c.rgArgs, root, limit), shown)) {
      throw new Error(`${c.name}: rg's listing ordered newest first is not what our tool shows`);
    }
    contenders.rgOrdered = () => rgThenNewestFirst(rg, c.rgArgs, root, limit);
    if (rgSortedArgs) {
      const sorted = await rgListing(rg, rgSortedArgs, root);
      sameOrder = sameListing({ total: sorted.length, first: sorted.slice(0, limit) }, shown);
      contenders.rgSorted = () => runProcess(rg, rgSortedArgs, root);
    }
  }
  const timings = await timeInterleaved(contenders, runs, warmup);
  return {
    name: c.name,
    ours: timings.ours!,
    rg: timings.rg!,
    rgSameArgs: timings.rgSame!,
    ...(timings.rgOrdered ? { rgOrdered: timings.rgOrdered } : {}),
    ...(timings.rgSorted ? { rgSorted: { ...timings.rgSorted, sameOrder } } : {}),
    goal: c.goal,
    summary: /\[([^\]]+)\]$/.exec(text)?.[1] ?? '',
  };
}

function row(r: CaseRecord): string {
  const against = r.goal === 'ordered' ? r.rgOrdered! : r.rg;
  const goalRatio = ratio(r.ours, against);
  const goal = `${goalRatio}× of ${r.goal === 'ordered' ? 'rg + same order' : 'rg'}: ${goalRatio <= 1.3 ? 'met' : 'not met'}`;
  const ordered = r.rgOrdered ? `${r.rgOrdered.medianMs} (${r.rgOrdered.p90Ms}) | ${ratio(r.ours, r.rgOrdered)}×` : '— | —';
  const sorted = r.rgSorted ? `${r.rgSorted.medianMs} (${r.rgSorted.sameOrder ? 'same' : 'not the same'})` : '—';
  return (
    `| ${r.name} | ${r.ours.medianMs} (${r.ours.p90Ms}) | ${r.rg.medianMs} (${r.rg.p90Ms}) | ${ratio(r.ours, r.rg)}× | ` +
    `${r.rgSameArgs.medianMs} | ${ratio(r.ours, r.rgSameArgs)}× | ${ordered} | ${sorted} | ${goal} | ${r.summary} |`
  );
}

function textOf(result: ToolResult): string {
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}

function ratio(a: Timing, b: Timing): number {
  return round(a.medianMs / b.medianMs);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
