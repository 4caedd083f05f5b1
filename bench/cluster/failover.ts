import { performance } from 'node:perf_hooks';
import { startClusterBed } from './cluster-bed.js';
import { startClusterVendor } from './cluster-vendor.js';

/** One failover: how long after a SIGKILL the next prompt of the dead daemon's session reached the model from another daemon. */
export interface FailoverFigures {
  leaseMs: number;
  /** SIGKILL of the daemon running the turn → the model request of the next prompt, sent to the other daemon right after the kill. */
  killToNextRequestMs: number;
  /** The same less the lease: what failover adds to the lease (goal ≤ 2,000 ms). */
  overLeaseMs: number;
  /** The stored turns afterwards: the killed one `interrupted`, the next `end_turn`. */
  turns: string[];
}

/**
 * Two daemons sharing one PostgreSQL (leaseMs each); a session's turn runs on the first
 * (its answer starts and never ends), the first is killed with SIGKILL, and a client of
 * the second loads the session and prompts it at once: the prompt goes to the dead owner's
 * queue, is withdrawn once its lease ended, and runs on the second daemon.
 */
export async function benchFailover(leaseMs = 10_000): Promise<FailoverFigures> {
  const vendor = await startClusterVendor(0, (text) => text.includes('before the kill'));
  const bed = await startClusterBed(2, vendor.url, { leaseMs });
  try {
    const [first, second] = bed.daemons as [(typeof bed.daemons)[0], (typeof bed.daemons)[0]];
    const { sessionId } = await first.client.connection.sendRequest<{ sessionId: string }>('session/new', { cwd: bed.workspace, mcpServers: [] });
    const started = vendor.nextRequest();
    void first.client.connection.sendRequest('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question before the kill' }] }).catch(() => undefined);
    await started;
    const next = vendor.nextRequest();
    first.daemon.child.kill('SIGKILL');
    const killedAt = performance.now();
    await second.client.connection.sendRequest('session/load', { sessionId, cwd: bed.workspace, mcpServers: [] });
    const answered = second.client.connection.sendRequest<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question after the kill' }] });
    const requestAt = await next;
    const answer = await answered;
    if (answer.stopReason !== 'end_turn') throw new Error(`the prompt after the kill ended ${answer.stopReason}`);
    const turns = (await bed.query<{ status: string }>(`SELECT status FROM turns WHERE session_id = '${sessionId}' ORDER BY started_at, ord`)).map((row) => row.status);
    const ms = requestAt - killedAt;
    return { leaseMs, killToNextRequestMs: Math.round(ms), overLeaseMs: Math.round(ms - leaseMs), turns };
  } finally {
    await bed.close();
    await vendor.close();
  }
}
