import { performance } from 'node:perf_hooks';
import { benchHome, median, percentile, spawnStdioDaemon } from './support/daemon-client.js';

/** Time from spawning `agentd serve --stdio` to the answer of `initialize`. */
export async function benchColdStart(runs = 30): Promise<{ runs: number; medianMs: number; p90Ms: number; minMs: number }> {
  const { home, cleanup } = benchHome({});
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const daemon = spawnStdioDaemon(home);
      await daemon.connection.sendRequest('initialize', { protocolVersion: 1 });
      times.push(performance.now() - start);
      daemon.connection.dispose();
      daemon.child.stdin.end();
      await new Promise((resolve) => daemon.child.once('exit', resolve));
    }
  } finally {
    cleanup();
  }
  return { runs, medianMs: median(times), p90Ms: percentile(times, 90), minMs: Math.min(...times) };
}
