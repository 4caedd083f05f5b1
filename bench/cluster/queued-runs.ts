import { startClusterBed } from './cluster-bed.js';
import { startClusterVendor } from './cluster-vendor.js';

/** Figures of one `queued-runs` run: `runs` headless prompts queued on `daemons` daemons sharing one PostgreSQL. */
export interface QueuedRunsFigures {
  daemons: number;
  runs: number;
  thinkMs: number;
  concurrency: number;
  /** Prompts queued on each session, one after another (its jobs run one at a time, in order). */
  promptsPerSession: number;
  /** From the first prompt queued to the last turn ended (by the database's clock for the end). */
  seconds: number;
  runsPerSecond: number;
  /** Turns stored / model requests the vendor got: each must equal `runs` (nothing lost, nothing run twice). */
  turns: number;
  requests: number;
  /** Turns that ended `end_turn`. */
  endedOk: number;
  /** Turns that ended otherwise, with their error, if any. */
  otherwise: Array<{ status: string; error: string | null }>;
}

/**
 * `runs` headless runs (prompts queued with `_meta.agentd.queue` on sessions made for them,
 * `promptsPerSession` each, queued back to back; spread over the daemons' clients) against
 * a model that thinks `thinkMs` before a short answer; any daemon with a free turn slot
 * (`cluster.concurrency`) takes each job. Done when every turn has ended in the database.
 */
export async function benchQueuedRuns(daemons: number, runs = 500, thinkMs = 200, concurrency = 8, promptsPerSession = 1): Promise<QueuedRunsFigures> {
  const vendor = await startClusterVendor(thinkMs);
  const bed = await startClusterBed(daemons, vendor.url, { concurrency });
  try {
    const startedAt = Date.now();
    const queued: Array<Promise<unknown>> = [];
    for (let first = 0; first < runs; first += promptsPerSession) {
      const { client } = bed.daemons[(first / promptsPerSession) % daemons]!;
      queued.push(
        (async () => {
          const { sessionId } = await client.connection.sendRequest<{ sessionId: string }>('session/new', { cwd: bed.workspace, mcpServers: [] });
          for (let i = first; i < Math.min(first + promptsPerSession, runs); i++) {
            const answer = await client.connection.sendRequest<{ _meta?: { agentd?: { outcome?: string } } }>('session/prompt', {
              sessionId,
              prompt: [{ type: 'text', text: `run ${i}` }],
              _meta: { agentd: { queue: true } },
            });
            if (answer._meta?.agentd?.outcome !== 'queued') throw new Error(`run ${i} was not queued: ${JSON.stringify(answer)}`);
          }
        })(),
      );
      // At most 32 requests in flight while queueing, as a script queueing work would.
      if (queued.length >= 32) await Promise.all(queued.splice(0));
    }
    await Promise.all(queued);
    for (;;) {
      const [row] = await bed.query<{ ended: string; total: string; ok: string; last: string | null }>(
        "SELECT count(*) FILTER (WHERE status <> 'running') AS ended, count(*) AS total, count(*) FILTER (WHERE status = 'end_turn') AS ok, max(ended_at) AS last FROM turns",
      );
      if (Number(row!.ended) >= runs) {
        const seconds = (Date.parse(row!.last!) - startedAt) / 1000;
        const otherwise = await bed.query<{ status: string; error: string | null }>("SELECT status, error FROM turns WHERE status <> 'end_turn'");
        return {
          daemons,
          runs,
          thinkMs,
          concurrency,
          promptsPerSession,
          seconds: round(seconds),
          runsPerSecond: round(runs / seconds),
          turns: Number(row!.total),
          requests: vendor.requests.length,
          endedOk: Number(row!.ok),
          otherwise,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await bed.close();
    await vendor.close();
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
