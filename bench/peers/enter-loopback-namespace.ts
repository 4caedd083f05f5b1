import { spawnSync } from 'node:child_process';

/** Set inside the namespace, so the runner does not enter another one. */
const MARK = 'AGENTD_BENCH_PEERS_NETNS';

/**
 * Re-runs this process inside a new user and network namespace whose only interface is
 * loopback (`unshare -rn`, then `ip link set lo up`), so no contender can reach anything
 * but the loopback vendor: no telemetry, update check or model download gets out even if
 * a switch was missed. Returns only inside the namespace; outside it exits with the inner
 * run's status.
 */
export function enterLoopbackNamespace(): void {
  if (process.env[MARK] === '1') return;
  const inner = [process.execPath, ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)];
  const result = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...inner], {
    stdio: 'inherit',
    env: { ...process.env, [MARK]: '1' },
  });
  if (result.error) throw new Error(`could not run unshare -rn (a network namespace with only loopback): ${result.error.message}`);
  process.exit(result.status ?? 1);
}
