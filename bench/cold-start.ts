import { performance } from 'node:perf_hooks';
import { benchHome, median, percentile, spawnStdioDaemon } from './support/daemon-client.js';
import { processCpuMs } from './support/proc-stats.js';
import { BARE_NODE_ARGS, timeToAnswer } from './support/time-to-answer.js';

/**
 * Time from spawning `agentd serve --stdio` to the answer of `initialize`, and, in the
 * same runs (interleaved), from spawning a bare `node` to its answer of one line. Also
 * each process's CPU time at its answer, which a busy machine disturbs less than the clock.
 */
export async function benchColdStart(runs = 30): Promise<{
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  bareNodeMedianMs: number;
  ratio: number;
  cpuMedianMs: number;
  bareNodeCpuMedianMs: number;
  cpuRatio: number;
}> {
  const { home, cleanup } = benchHome({});
  const times: number[] = [];
  const bare: number[] = [];
  const cpu: number[] = [];
  const bareCpu: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const daemon = spawnStdioDaemon(home);
      await daemon.connection.sendRequest('initialize', { protocolVersion: 1 });
      times.push(performance.now() - start);
      cpu.push(processCpuMs(daemon.child.pid));
      daemon.connection.dispose();
      daemon.child.stdin.end();
      await new Promise((resolve) => daemon.child.once('exit', resolve));
      const bareRun = await timeToAnswer(BARE_NODE_ARGS);
      bare.push(bareRun.ms);
      bareCpu.push(bareRun.cpuMs);
    }
  } finally {
    cleanup();
  }
  const medianMs = median(times);
  const bareNodeMedianMs = median(bare);
  const cpuMedianMs = median(cpu);
  const bareNodeCpuMedianMs = median(bareCpu);
  return {
    runs,
    medianMs,
    p90Ms: percentile(times, 90),
    minMs: Math.min(...times),
    bareNodeMedianMs,
    ratio: medianMs / bareNodeMedianMs,
    cpuMedianMs,
    bareNodeCpuMedianMs,
    cpuRatio: cpuMedianMs / bareNodeCpuMedianMs,
  };
}
