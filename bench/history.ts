import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveAgentdPaths } from '../src/config/agentd-paths.js';
import pg from 'pg';
import { openStore } from '../src/store/open-store.js';
import { openPostgresStore } from '../src/store/postgres-store.js';
import { createDatabase, startPostgresServer } from '../test/support/postgres-server.js';
import type { NewMessage, Store } from '../src/store/store.js';
import { processCpuMs } from './support/proc-stats.js';
import { benchHome, median, percentile, spawnStdioDaemon } from './support/daemon-client.js';

/** Figures of one `history` run (see README.md). */
export interface HistoryFigures {
  /** `sqlite` (the file in the data directory) or `postgres` (a durable local server on a Unix socket). */
  store: StoreKind;
  messages: number;
  commitMedianMs: number;
  commitMeanMs: number;
  commitP90Ms: number;
  /** CPU time of all the appends over their count. */
  commitCpuMeanMs: number;
  databaseMb: number;
  loadRuns: number;
  loadMedianMs: number;
  loadMinMs: number;
  loadMaxMs: number;
  /** The same, sent a second after `initialize` was answered: the daemon has finished starting (see README.md). */
  settledLoadMedianMs: number;
  /** CPU time the daemon process used from sending `session/load` to its answer, settled runs (Linux; 10 ms ticks). */
  settledLoadCpuMedianMs: number;
  notifications: number;
  replayMb: number;
}

export type StoreKind = 'sqlite' | 'postgres';

/**
 * A long stored session, committed through the real store, then loaded by freshly
 * spawned daemons: the store's cost per committed message, and the time from sending
 * `session/load` to its answer, replay of the whole history included. `postgres` runs the
 * same on a PostgreSQL server started here from Debian's binaries (its own commit settings
 * kept: fsync and synchronous commit on), the daemons pointed at it by their config.
 */
export async function benchHistory(messages = 10_000, loadRuns = 7, storeKind: StoreKind = 'sqlite'): Promise<HistoryFigures> {
  const url = storeKind === 'postgres' ? await createDatabase(startPostgresServer({ durable: true }), 'bench_history') : undefined;
  const { home, cleanup } = benchHome(url ? { store: { type: 'postgres', url } } : {});
  const project = mkdtempSync(join(tmpdir(), 'agentd-bench-project-'));
  try {
    const paths = resolveAgentdPaths({ AGENTD_HOME: home });
    const store = url ? await openPostgresStore(url) : openStore(paths.databaseFile);
    const { times: commits, cpuMs } = await fillSession(store, 'bench-history', project, messages);
    await store.close();
    const size = url ? await databaseSize(url) : statSync(paths.databaseFile).size;

    const loads: number[] = [];
    const settledLoads: number[] = [];
    const settledCpu: number[] = [];
    let notifications = 0;
    let replayBytes = 0;
    for (let run = 0; run < 2 * loadRuns; run++) {
      const settled = run % 2 === 1;
      const load = await timeLoad(home, project, settled ? 1000 : 0);
      if (run > 0 && (load.notifications !== notifications || load.bytes !== replayBytes)) {
        throw new Error(`run ${run} got ${load.notifications} notifications (${load.bytes} bytes), run 0 got ${notifications} (${replayBytes} bytes)`);
      }
      notifications = load.notifications;
      replayBytes = load.bytes;
      (settled ? settledLoads : loads).push(load.ms);
      if (settled) settledCpu.push(load.cpuMs);
    }
    return {
      store: storeKind,
      messages: commits.length,
      commitMedianMs: round(median(commits)),
      commitMeanMs: round(commits.reduce((a, b) => a + b, 0) / commits.length),
      commitP90Ms: round(percentile(commits, 90)),
      commitCpuMeanMs: round(cpuMs / commits.length),
      databaseMb: round(size / 1e6),
      loadRuns,
      loadMedianMs: round(median(loads)),
      loadMinMs: round(Math.min(...loads)),
      loadMaxMs: round(Math.max(...loads)),
      settledLoadMedianMs: round(median(settledLoads)),
      settledLoadCpuMedianMs: round(median(settledCpu)),
      notifications,
      replayMb: round(replayBytes / 1e6),
    };
  } finally {
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
}

/** Bytes the database takes on disk (tables, indexes, TOAST). */
async function databaseSize(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>('SELECT pg_database_size(current_database()) AS size');
    return Number(rows[0]!.size);
  } finally {
    await client.end();
  }
}

/**
 * Spawns a daemon on the home, initializes it, and times `session/load` from request to
 * answer; `settleMs` waits that long after `initialize` first (the daemon loads its store,
 * sessions and tools right after that answer, and a load sent at once waits for them).
 */
async function timeLoad(home: string, cwd: string, settleMs: number): Promise<{ ms: number; cpuMs: number; notifications: number; bytes: number }> {
  const daemon = spawnStdioDaemon(home);
  let notifications = 0;
  let bytes = 0;
  daemon.connection.onNotification('session/update', () => void notifications++);
  daemon.onLine((line) => void (bytes += Buffer.byteLength(line) + 1));
  try {
    await daemon.connection.sendRequest('initialize', { protocolVersion: 1 });
    if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    bytes = 0;
    const cpu = processCpuMs(daemon.child.pid);
    const start = performance.now();
    await daemon.connection.sendRequest('session/load', { sessionId: 'bench-history', cwd, mcpServers: [] });
    const ms = performance.now() - start;
    return { ms, cpuMs: processCpuMs(daemon.child.pid) - cpu, notifications, bytes };
  } finally {
    daemon.connection.dispose();
    daemon.child.stdin.end();
    await new Promise((resolve) => daemon.child.once('exit', resolve));
  }
}

/**
 * Commits `count` messages as a coding session leaves them: turns of a prompt, a few tool
 * rounds (a call, then its result of a few hundred bytes to a few KB, with what the live
 * client was shown) and a closing answer, and one compaction summary two thirds in.
 * `model` is the ref its assistant messages record as their author. Returns the time each
 * `appendMessage` took (called and awaited, as the session writer does), and the CPU time
 * (user and system) of them all: on a machine shared with other work, wall-clock times also
 * count the moments the process waited for a core.
 */
export async function fillSession(store: Store, sessionId: string, cwd: string, count: number, model = 'bench/model'): Promise<{ times: number[]; cpuMs: number }> {
  await store.createSession({ id: sessionId, cwd });
  const random = seeded(12);
  const times: number[] = [];
  let cpuMicros = 0;
  let turn = 0;
  const append = async (message: NewMessage): Promise<void> => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    await store.appendMessage(message);
    times.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
  };
  while (times.length < count) {
    const turnId = `turn-${++turn}`;
    await store.startTurn(sessionId, turnId);
    const prompt = words(random, 20 + Math.floor(random() * 60));
    if (turn === Math.floor(count / 15)) {
      // A compaction summary, as compactContext stores it: its meta tells load what it replaced.
      await append({ sessionId, turnId, role: 'user', content: [{ type: 'text', text: `<summary of the earlier conversation>\n${words(random, 300)}\n</summary>` }], meta: { agentd: { compaction: { kept: 4, acknowledged: true, replaced: times.length - 4 } } } });
    }
    await append({ sessionId, turnId, role: 'user', content: [{ type: 'text', text: prompt }], meta: { acp: [{ type: 'text', text: prompt }] } });
    const rounds = 1 + Math.floor(random() * 5);
    for (let round = 0; round < rounds && times.length < count - 2; round++) {
      const callId = `call-${turn}-${round}`;
      const path = `${cwd}/src/${words(random, 1)}/${words(random, 1)}.ts`;
      await append({
        sessionId,
        turnId,
        role: 'assistant',
        model,
        content: [
          ...(random() < 0.3 ? [{ type: 'thinking', text: words(random, 40), signature: 'sig' }] : []),
          { type: 'text', text: words(random, 10 + Math.floor(random() * 40)) },
          { type: 'tool_call', id: callId, name: 'read', args: { path } },
        ],
        usage: { inputTokens: 1000 * turn, outputTokens: 120, cacheReadTokens: 900 * turn, cacheWriteTokens: 0, reasoningTokens: 0 },
        costUsd: 0.001,
      });
      const output = words(random, 50 + Math.floor(random() * 600));
      await append({
        sessionId,
        turnId,
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: callId, toolName: 'read', content: [{ type: 'text', text: output }] }],
        meta: {
          shownToolCalls: {
            [callId]: { title: `Read ${path}`, kind: 'read', locations: [{ path }], status: 'completed', content: [{ type: 'content', content: { type: 'text', text: output } }] },
          },
        },
      });
    }
    await append({ sessionId, turnId, role: 'assistant', model, content: [{ type: 'text', text: words(random, 30 + Math.floor(random() * 150)) }], costUsd: 0.001 });
    await store.endTurn(turnId, 'end_turn');
  }
  return { times, cpuMs: cpuMicros / 1000 };
}

const VOCABULARY = 'the a function returns value when store session message load replay client daemon token stream file path error test build with from into each'.split(' ');

function words(random: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)]!);
  return out.join(' ');
}

/** mulberry32: the same session on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
