import { benchFailover } from './failover.js';
import { benchJobFetch } from './job-fetch.js';
import { benchQueuedRuns } from './queued-runs.js';

/**
 * `node dist/bench/cluster/run-cluster.js queued [daemons,…] [runs] [thinkMs] [concurrency] [promptsPerSession]`
 * or `… failover [leaseMs] [rounds]` or `… fetch [waiting,…] [completed] [fetches]`: one JSON line per measurement (see bench/README.md).
 */
async function main(): Promise<void> {
  const [what, ...args] = process.argv.slice(2);
  if (what === 'queued') {
    const counts = (args[0] ?? '1,2,3').split(',').map(Number);
    for (const daemons of counts) {
      console.log(JSON.stringify({ bench: 'queued-runs', ...(await benchQueuedRuns(daemons, Number(args[1] ?? 500), Number(args[2] ?? 200), Number(args[3] ?? 8), Number(args[4] ?? 1))) }));
    }
    return;
  }
  if (what === 'fetch') {
    for (const waiting of (args[0] ?? '1000,10000').split(',').map(Number)) {
      console.log(JSON.stringify({ bench: 'job-fetch', ...(await benchJobFetch(waiting, Number(args[1] ?? 10_000), Number(args[2] ?? 40))) }));
    }
    return;
  }
  if (what === 'failover') {
    for (let round = 0; round < Number(args[1] ?? 3); round++) console.log(JSON.stringify({ bench: 'failover', ...(await benchFailover(Number(args[0] ?? 10_000))) }));
    return;
  }
  throw new Error('usage: run-cluster.js queued [daemons,…] [runs] [thinkMs] [concurrency] [promptsPerSession] | failover [leaseMs] [rounds] | fetch [waiting,…] [completed] [fetches]');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
