/** One unit of work; a sequential one runs with nothing else in flight. */
export interface LimitedTask<T> {
  sequential: boolean;
  run(): Promise<T>;
}

/**
 * Runs tasks with at most `limit` in flight, starting them in order; a sequential
 * task waits for everything before it and blocks everything after it until done.
 * Results come back in task order.
 */
export async function runWithLimit<T>(tasks: LimitedTask<T>[], limit: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  const running = new Set<Promise<void>>();
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    if (task.sequential) await Promise.all(running);
    while (running.size >= Math.max(1, limit)) await Promise.race(running);
    const p: Promise<void> = task.run().then((value) => {
      results[i] = value;
      running.delete(p);
    });
    running.add(p);
    if (task.sequential) await p;
  }
  await Promise.all(running);
  return results;
}
