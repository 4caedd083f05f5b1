import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../support/daemon-client.js';
import { readJsonlLines } from './jsonl-lines.js';
import { startVendorChild } from './vendor-child.js';

/**
 * The floor under relay CPU per event with one event per read (`paced`): a process that
 * only reads the vendor's answer, and one that also writes a line per read to a pipe whose
 * reader parses each line — no parsing, no session, nothing of agentd's. Its CPU per read
 * is what any relay in another process pays before doing anything.
 * `node dist/bench/relay/relay-floor.js [--chunks 2000] [--runs 5]`: one JSON line.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { chunks: { type: 'string', default: '2000' }, runs: { type: 'string', default: '5' } } });
  const chunks = Number(values.chunks);
  const vendor = await startVendorChild(chunks, 'paced');
  const cpu: Record<'read' | 'write', number[]> = { read: [], write: [] };
  try {
    for (let run = 0; run < Number(values.runs); run++) {
      for (const mode of ['read', 'write'] as const) cpu[mode].push(await floorRun(vendor.url, mode));
    }
  } finally {
    await vendor.close();
  }
  const us = (values: number[]): number => Math.round(median(values) * 10) / 10;
  console.log(JSON.stringify({ bench: 'relay-floor', chunks, runs: cpu.read.length, cpuUsPerRead: { read: us(cpu.read), readAndWriteLine: us(cpu.write) }, all: { read: cpu.read.map(Math.round), readAndWriteLine: cpu.write.map(Math.round) } }));
}

/** CPU µs per read of one floor process over one answer, as it counted it (from its first read on). */
async function floorRun(url: string, mode: 'read' | 'write'): Promise<number> {
  const script = fileURLToPath(new URL('./relay-floor-child.js', import.meta.url));
  const child = spawn(process.execPath, [script, url, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The reader a relay's client is: split the lines, parse each.
  readJsonlLines(child.stdout, (text) => void JSON.parse(text));
  const { reads, cpuUs } = await new Promise<{ reads: number; cpuUs: number }>((resolve, reject) => {
    readJsonlLines(child.stderr, (text) => resolve(JSON.parse(text) as { reads: number; cpuUs: number }));
    child.once('exit', (code) => reject(new Error(`floor process exited (${code}) before its answer ended`)));
  });
  child.kill();
  return cpuUs / reads;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
