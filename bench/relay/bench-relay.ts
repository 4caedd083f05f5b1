import { median } from '../support/daemon-client.js';
import { startAgentdStdio } from './agentd-stdio-contender.js';
import { startOpenAiSdk } from './openai-sdk-contender.js';
import { startPiRpc } from './pi-rpc-contender.js';
import type { RelayContender, RelayRun } from './relay-run.js';
import { startVendorChild } from './vendor-child.js';
import { streamPieces, type WriteMode } from './vendor-stream.js';

/** One stream (length and write mode) and who relays it. */
interface Scenario {
  chunks: number;
  mode: WriteMode;
  withSdk: boolean;
  withPi: boolean;
  runs: number;
}

/** Medians of one contender's runs. */
interface Summary {
  contender: string;
  runs: number;
  chunksPerSecond: number;
  /** Chunks per second of the streaming alone (the chunks after the first content line, over the time from it to the last). */
  streamChunksPerSecond: number;
  ms: number;
  cpuMsPer1000Chunks: number;
  contentLinesPerRun: number;
  bytesPerChunkFirst100: number;
  bytesPerChunkLast100: number;
  bytesPerChunkAll: number;
  peakRssMiB: number;
  allChunksPerSecond: number[];
}

/**
 * Relay throughput: a chat-completions answer of N chunks from a loopback vendor (its own
 * process, writing 16 KiB or one SSE event at a time), relayed by agentd over stdio to a
 * plain JSON-RPC client, beside the `openai` SDK reading the same stream in-process and
 * pi's RPC mode; contenders interleaved round by round, their order rotating.
 */
export async function benchRelay(options: {
  chunks: number;
  piChunks: number;
  longChunks: number;
  modes: WriteMode[];
  runs: number;
  warmup: number;
  pi: boolean;
  /** Another build's CLI, run beside this one (before/after). */
  baseCli: string | undefined;
}): Promise<Array<{ scenario: Omit<Scenario, 'withSdk' | 'withPi'>; results: Summary[] }>> {
  const scenarios: Scenario[] = options.modes.map((mode) => ({ chunks: options.chunks, mode, withSdk: true, withPi: false, runs: options.runs }));
  if (options.pi) scenarios.push(...options.modes.map((mode) => ({ chunks: options.piChunks, mode, withSdk: true, withPi: true, runs: options.runs })));
  if (options.longChunks > 0) scenarios.push({ chunks: options.longChunks, mode: '16k', withSdk: false, withPi: false, runs: Math.min(options.runs, 3) });
  const out = [];
  for (const scenario of scenarios) {
    const results = await runScenario(scenario, options.warmup, options.baseCli);
    const { chunks, mode, runs } = scenario;
    const line = { bench: 'relay', chunks, mode, runs, results, ratios: ratios(results) };
    console.log(JSON.stringify(line));
    out.push({ scenario: { chunks, mode, runs }, results });
  }
  return out;
}

async function runScenario(scenario: Scenario, warmup: number, baseCli: string | undefined): Promise<Summary[]> {
  const pieces = streamPieces(scenario.chunks);
  const chunkChars = pieces[0]!.length;
  const expected = pieces.join('');
  const vendor = await startVendorChild(scenario.chunks, scenario.mode);
  const contenders: RelayContender[] = [];
  try {
    contenders.push(await startAgentdStdio('agentd stdio', vendor.url, expected, chunkChars));
    if (baseCli !== undefined) contenders.push(await startAgentdStdio('agentd stdio (base)', vendor.url, expected, chunkChars, baseCli));
    if (scenario.withSdk) contenders.push(startOpenAiSdk(vendor.url, expected));
    if (scenario.withPi) contenders.push(await startPiRpc(vendor.url, expected, chunkChars));
    const runs = new Map<string, RelayRun[]>(contenders.map((c) => [c.name, []]));
    for (let round = 0; round < warmup + scenario.runs; round++) {
      for (let i = 0; i < contenders.length; i++) {
        const contender = contenders[(round + i) % contenders.length]!;
        const run = await contender.run();
        if (round >= warmup) runs.get(contender.name)!.push(run);
      }
    }
    return contenders.map((c) => summarise(c.name, scenario.chunks, runs.get(c.name)!));
  } finally {
    for (const contender of contenders) await contender.close();
    await vendor.close();
  }
}

function summarise(contender: string, chunks: number, runs: RelayRun[]): Summary {
  const med = (pick: (run: RelayRun) => number): number => round(median(runs.map(pick)));
  return {
    contender,
    runs: runs.length,
    chunksPerSecond: Math.round(median(runs.map((run) => chunks / (run.ms / 1000)))),
    streamChunksPerSecond: Math.round(median(runs.map((run) => run.streamChunks / (run.streamMs / 1000)))),
    ms: med((run) => run.ms),
    cpuMsPer1000Chunks: round(median(runs.map((run) => (run.cpuMs * 1000) / chunks))),
    contentLinesPerRun: med((run) => run.contentLines),
    bytesPerChunkFirst100: med((run) => run.bytesPerChunkFirst100),
    bytesPerChunkLast100: med((run) => run.bytesPerChunkLast100),
    bytesPerChunkAll: med((run) => run.bytesPerChunkAll),
    peakRssMiB: med((run) => run.peakRssMiB),
    allChunksPerSecond: runs.map((run) => Math.round(chunks / (run.ms / 1000))),
  };
}

/** agentd's median rate over each other contender's (above 1: agentd is faster), and pi's bytes per chunk over agentd's. */
function ratios(results: Summary[]): Record<string, number> {
  const agentd = results[0]!;
  const out: Record<string, number> = {};
  for (const other of results.slice(1)) out[`agentd ÷ ${other.contender}`] = round(agentd.chunksPerSecond / other.chunksPerSecond);
  const pi = results.find((r) => r.contender.startsWith('pi'));
  if (pi) out['pi bytes ÷ agentd bytes per chunk'] = round(pi.bytesPerChunkAll / agentd.bytesPerChunkAll);
  return out;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
