import type { DataDirOwner } from '../store/data-dir-lock.js';

/** Whether the owner exits by itself: "started on demand, exits after 30 min …", "runs until stopped", or lives with its one client. */
export function describeDaemonKind(owner: DataDirOwner | undefined): string {
  if (!owner) return 'its kind is not recorded yet';
  if (owner.idleExitMs !== null) return `started on demand, exits after ${formatDuration(owner.idleExitMs)} with no client, turn or enabled schedule (server.idleExitMs)`;
  if (owner.socketPath || owner.listen) return 'started by `agentd serve`, runs until stopped (`agentd stop`)';
  return 'lives as long as its one client (`agentd run`, or `agentd serve` on stdio)';
}

/** 1800000 → "30 min", 1500 → "1.5 s". */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${ms} ms`;
}
