import type { ChildProcess } from 'node:child_process';

/**
 * Ends a child the benchmarks started: the end of its stdin is its signal to exit (a
 * daemon then writes its --cpu-prof profile); one that has not gone after `graceMs` is killed.
 */
export async function endChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
