import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { benchHome, median, percentile, spawnStdioDaemon } from './support/daemon-client.js';

/** A bare `node` that answers the first line it reads: the floor any Node daemon starts from. */
const BARE_NODE = "process.stdin.once('data', () => { process.stdout.write('{}\\n'); process.exit(0); });";

/**
 * Time from spawning `agentd serve --stdio` to the answer of `initialize`, and, in the
 * same runs (interleaved), from spawning a bare `node` to its answer of one line.
 */
export async function benchColdStart(runs = 30): Promise<{ runs: number; medianMs: number; p90Ms: number; minMs: number; bareNodeMedianMs: number; ratio: number }> {
  const { home, cleanup } = benchHome({});
  const times: number[] = [];
  const bare: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const daemon = spawnStdioDaemon(home);
      await daemon.connection.sendRequest('initialize', { protocolVersion: 1 });
      times.push(performance.now() - start);
      daemon.connection.dispose();
      daemon.child.stdin.end();
      await new Promise((resolve) => daemon.child.once('exit', resolve));
      bare.push(await bareNode());
    }
  } finally {
    cleanup();
  }
  const medianMs = median(times);
  const bareNodeMedianMs = median(bare);
  return { runs, medianMs, p90Ms: percentile(times, 90), minMs: Math.min(...times), bareNodeMedianMs, ratio: medianMs / bareNodeMedianMs };
}

async function bareNode(): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, ['-e', BARE_NODE], { stdio: 'pipe' });
  const answered = new Promise<number>((resolve) => child.stdout.once('data', () => resolve(performance.now() - start)));
  child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize"}\n');
  const elapsed = await answered;
  await new Promise((resolve) => child.once('exit', resolve));
  return elapsed;
}
