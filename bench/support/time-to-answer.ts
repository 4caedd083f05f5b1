import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { processCpuMs } from './proc-stats.js';

/**
 * A bare `node` that answers the first line on stdin with `{}` and exits: the floor the
 * daemon's `initialize` is measured against (node starting and reading one message). It
 * stays 50 ms after answering, so that its CPU time can be read at the answer.
 */
export const BARE_NODE_ARGS = ['-e', "process.stdin.once('data', () => { process.stdout.write('{}\\n'); setTimeout(() => process.exit(0), 50); });"];

/**
 * Spawns `node ARGS`, writes an `initialize` line and measures the time to its first
 * stdout bytes and the process's CPU time by then; resolves once the process has exited.
 */
export async function timeToAnswer(args: string[]): Promise<{ ms: number; cpuMs: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const answered = new Promise<{ ms: number; cpuMs: number }>((resolve) =>
    child.stdout.once('data', () => resolve({ ms: performance.now() - start, cpuMs: processCpuMs(child.pid) })),
  );
  child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize"}\n');
  const result = await answered;
  await new Promise((resolve) => child.once('exit', resolve));
  return result;
}
