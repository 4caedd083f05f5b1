import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { runContender, type RunFigures } from './acp-run.js';
import { agentd, agentdStdio, agentdStdioOf, bareNode, type Contender } from './contenders.js';
import { enterLoopbackNamespace } from './enter-loopback-namespace.js';
import { claudeCodeAcp, codexAcp, geminiCli, opencode } from './peer-agents.js';
import { printSummary, summarize } from './summarize-peers.js';
import { startVendorServer } from './vendor-server.js';

/**
 * agentd beside the ACP agents an editor would otherwise run, all on one loopback vendor,
 * driven by one ACP client, in a network namespace with only loopback:
 *
 *   node dist/bench/peers/run-peers.js [runs|quick] [contender,...] [--chunks N]
 *
 * Runs are interleaved: run i starts every contender once, the order rotating by one each
 * run. JSON lines per run and contender, then one per contender with the medians, then a table.
 * AGENTD_BENCH_BASE_BIN (comma-separated paths of other builds' `agentd` bins) adds each one's
 * `serve --stdio` as agentd-serve-stdio@<its folder's name>, for before/after in one run.
 */
const bases = (process.env.AGENTD_BENCH_BASE_BIN ?? '').split(',').filter((bin) => bin !== '');
const all: Contender[] = [
  bareNode,
  agentd('openai-chat'),
  agentdStdio,
  ...bases.map((bin) => agentdStdioOf(bin, `agentd-serve-stdio@${basename(dirname(bin))}`)),
  agentd('openai-responses'),
  agentd('anthropic-messages'),
  agentd('gemini'),
  codexAcp,
  claudeCodeAcp,
  geminiCli,
  opencode,
];

async function main(): Promise<void> {
  enterLoopbackNamespace();
  const args = process.argv.slice(2);
  const chunksAt = args.indexOf('--chunks');
  const chunks = chunksAt >= 0 ? Number(args.splice(chunksAt, 2)[1]) : 2000;
  const runs = args[0] === 'quick' ? 3 : Number(args[0] ?? 11);
  const names = args[1]?.split(',');
  const contenders = names ? all.filter((c) => names.includes(c.name)) : all;
  if (!Number.isInteger(runs) || runs < 1 || contenders.length === 0) throw new Error(`usage: run-peers.js [runs|quick] [${all.map((c) => c.name).join(',')}] [--chunks N]`);

  const vendor = await startVendorServer('bench');
  // A project directory like an editor's, with one file.
  const workspace = mkdtempSync(join(tmpdir(), 'peers-ws-'));
  writeFileSync(join(workspace, 'README.md'), '# bench workspace\n');
  const results = new Map<string, RunFigures[]>(contenders.map((c) => [c.name, []]));
  const failures = new Map<string, string>();
  try {
    for (let run = 0; run < runs; run++) {
      for (let k = 0; k < contenders.length; k++) {
        const contender = contenders[(run + k) % contenders.length]!;
        if (failures.has(contender.name)) continue;
        try {
          const figures = await runContender(contender, vendor, workspace, chunks, run);
          results.get(contender.name)!.push(figures);
          console.log(JSON.stringify({ bench: 'peers', run, contender: contender.name, ...figures, vendorRequests: figures.vendorRequests.map((r) => `${r.method} ${r.path} ${r.kind}`) }));
        } catch (error) {
          // A contender that cannot run here is dropped from the rest of the runs with its reason.
          failures.set(contender.name, (error as Error).message);
          console.log(JSON.stringify({ bench: 'peers', run, contender: contender.name, error: (error as Error).message }));
        }
      }
    }
  } finally {
    await vendor.close();
    rmSync(workspace, { recursive: true, force: true });
  }
  const summary = summarize(results, failures, chunks);
  for (const row of summary) console.log(JSON.stringify({ bench: 'peers-median', ...row }));
  printSummary(summary);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
