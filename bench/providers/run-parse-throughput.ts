import os from 'node:os';
import { parseArgs } from 'node:util';
import { benchProtocols, type BenchProtocol } from './bench-transcript.js';
import { benchParseThroughput, type ContenderFigure, type ProtocolResult } from './parse-throughput.js';

/**
 * `node dist/bench/providers/run-parse-throughput.js [--runs N] [--warmup N] [--events N]
 * [--protocol P] [--json]`: runs the parse-throughput benchmark and prints a Markdown
 * table ready for bench/RESULTS.md (or one JSON object per protocol with --json).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      warmup: { type: 'string' },
      events: { type: 'string' },
      protocol: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  const protocols = values.protocol?.map(checkProtocol);
  const results = await benchParseThroughput({
    ...(values.runs !== undefined ? { runs: positive('--runs', values.runs) } : {}),
    ...(values.warmup !== undefined ? { warmup: positive('--warmup', values.warmup) } : {}),
    ...(values.events !== undefined ? { events: positive('--events', values.events) } : {}),
    ...(protocols !== undefined ? { protocols } : {}),
  });
  if (values.json === true) {
    for (const result of results) console.log(JSON.stringify(result));
    return;
  }
  const cpus = os.cpus();
  console.log(`node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}\n`);
  console.log('| protocol | read from | agentd events/s | SDK events/s | agentd MB/s | SDK MB/s | agentd ÷ SDK |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const result of results) {
    for (const transport of ['memory', 'http'] as const) {
      const ours = figure(result, 'agentd', transport);
      const theirs = figure(result, 'sdk', transport);
      console.log(
        `| ${result.protocol} | ${transport === 'memory' ? 'memory (parser)' : 'loopback HTTP'} | ${round(ours.eventsPerSecond)} | ${round(theirs.eventsPerSecond)} | ` +
          `${ours.megabytesPerSecond.toFixed(1)} | ${theirs.megabytesPerSecond.toFixed(1)} | ${(theirs.medianMs / ours.medianMs).toFixed(2)}× |`,
      );
    }
  }
  console.log('');
  for (const result of results) {
    console.log(`- ${result.protocol}: ${result.wireEvents} events, ${(result.bytes / 1e6).toFixed(2)} MB in ${result.chunks} chunks; SDK: ${result.sdk}`);
  }
}

function figure(result: ProtocolResult, side: 'agentd' | 'sdk', transport: 'memory' | 'http'): ContenderFigure {
  const found = result.contenders.find((c) => c.side === side && c.transport === transport);
  if (found === undefined) throw new Error(`no ${side} ${transport} figure for ${result.protocol}`);
  return found;
}

function round(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive whole number, got "${value}"`);
  return n;
}

function checkProtocol(value: string): BenchProtocol {
  const found = benchProtocols.find((p) => p === value);
  if (found === undefined) throw new Error(`--protocol "${value}" is not one of ${benchProtocols.join(', ')}`);
  return found;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
