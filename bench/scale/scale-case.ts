import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchHome, median } from '../support/daemon-client.js';
import { processCpuMs, sampleRss, settledRssMiB, statusMiB } from '../support/proc-stats.js';
import { SessionStreams, type StreamCheck } from './session-streams.js';
import { spawnSocketDaemon, type SocketClient } from './socket-daemon.js';
import { sessionTag } from './tagged-chat-server.js';

/** One socket carrying every session, or one socket (and one `initialize`) per session. */
export type ScaleCaseName = 'one-socket' | 'socket-per-session';

/** Quiet time before an RSS read, for the daemon's start-up work and V8's heap to settle. */
const SETTLE_MS = 2000;

export interface ScaleCaseResult {
  case: ScaleCaseName;
  sessions: number;
  chunks: number;
  /** Every session got exactly its pieces in order, and every prompt answered end_turn. */
  ok: boolean;
  stopReasons: Record<string, number>;
  check: StreamCheck;
  /** First `session/prompt` sent to the last answer. */
  seconds: number;
  chunksPerSecond: number;
  /** When the fastest and the median session's answer came, from the first prompt sent. */
  firstAnswerSeconds: number;
  medianAnswerSeconds: number;
  /** Medians over sessions of when their first and last chunk reached the client, from the first prompt sent. */
  medianFirstChunkSeconds: number;
  medianLastChunkSeconds: number;
  /** The daemon's CPU time (user + system) from the first prompt to the last answer, and per chunk relayed. */
  daemonCpuSeconds: number;
  daemonCpuMicrosPerChunk: number;
  /** This process's CPU time over the same span: the clients (the vendor has a process of its own). */
  benchCpuSeconds: number;
  rss: {
    /** After the first connection's `initialize` and a settle, before any session. */
    beforeSessionsMiB: number;
    /** After the first session (whose creation loads the session modules) and a settle. */
    oneSessionMiB: number;
    /** After all sessions, none prompted, and a settle. */
    idleSessionsMiB: number;
    /** (idleSessions − beforeSessions) / sessions: the brief's figure, first-use loading included. */
    perIdleSessionKiB: number;
    /** (idleSessions − oneSession) / (sessions − 1): what one more idle session (and its connection, per session) costs. */
    perIdleSessionMarginalKiB: number;
    /** Highest VmRSS sampled every 20 ms from the first prompt to the last answer. */
    peakSampledMiB: number;
    rssSamples: number;
    /** VmHWM at the last answer: the peak over the daemon's life, between samples included. */
    peakHwmMiB: number;
    /** VmRSS at the last answer, and after a settle. */
    streamEndMiB: number;
    afterSettleMiB: number;
  };
  loadAverage: number[];
  /** The daemon's log lines about dropping a connection (its output queue limit), if any. */
  daemonDrops: string[];
}

/** A fresh `agentd serve --socket` with its own AGENTD_HOME, `sessions` idle sessions, then every one prompted at once. */
export async function runScaleCase(name: ScaleCaseName, serverUrl: string, sessions: number, chunks: number): Promise<ScaleCaseResult> {
  const { home, cleanup } = benchHome({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${serverUrl}/v1` } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const daemon = spawnSocketDaemon(home);
  const clients: SocketClient[] = [];
  try {
    const pid = daemon.child.pid!;
    const streams = new SessionStreams();
    const open = async (): Promise<{ client: SocketClient; own: Set<string> }> => {
      const client = await daemon.connect();
      clients.push(client);
      const own = new Set<string>();
      streams.follow(client.connection, own);
      await client.connection.sendRequest('initialize', { protocolVersion: 1 });
      return { client, own };
    };
    const first = await open();
    const beforeSessionsMiB = await settledRssMiB(pid, SETTLE_MS);

    const created: Array<{ index: number; sessionId: string; client: SocketClient }> = [];
    const create = async (index: number): Promise<void> => {
      const { client, own } = name === 'one-socket' || index === 0 ? first : await open();
      const { sessionId } = (await client.connection.sendRequest('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId: string };
      own.add(sessionId);
      created.push({ index, sessionId, client });
    };
    await create(0);
    const oneSessionMiB = await settledRssMiB(pid, SETTLE_MS);
    for (let index = 1; index < sessions; index++) await create(index);
    const idleSessionsMiB = await settledRssMiB(pid, SETTLE_MS);

    const sampler = sampleRss(pid, 20);
    const daemonCpuBefore = processCpuMs(pid) / 1000;
    const benchCpuBefore = process.cpuUsage();
    const started = performance.now();
    const answeredAt: number[] = [];
    const results = await Promise.all(
      created.map(async ({ index, sessionId, client }) => {
        // A prompt the daemon never answers (its connection dropped) counts as failed, so lost pieces are reported, not thrown.
        const answer = client.connection.sendRequest('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: `${sessionTag(index)}: stream your pieces` }],
        }) as Promise<{ stopReason: string }>;
        const result = await Promise.race([
          answer.catch((error: Error) => ({ stopReason: `failed: ${error.message}` })),
          client.closed.then(() => ({ stopReason: 'failed: the connection closed' })),
        ]);
        answeredAt.push(performance.now() - started);
        return result;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const daemonCpuSeconds = processCpuMs(pid) / 1000 - daemonCpuBefore;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const { peakSampledMiB, samples } = sampler.stop();
    const peakHwmMiB = statusMiB(pid, 'VmHWM');
    const streamEndMiB = statusMiB(pid, 'VmRSS');
    const afterSettleMiB = await settledRssMiB(pid, SETTLE_MS);

    const stopReasons: Record<string, number> = {};
    for (const { stopReason } of results) stopReasons[stopReason] = (stopReasons[stopReason] ?? 0) + 1;
    const check = streams.verify(created, chunks);
    const ok = check.sessionsIntact === sessions && stopReasons.end_turn === sessions && check.crossed === 0;
    return {
      case: name,
      sessions,
      chunks,
      ok,
      stopReasons,
      check,
      seconds,
      chunksPerSecond: (sessions * chunks) / seconds,
      firstAnswerSeconds: Math.min(...answeredAt) / 1000,
      medianAnswerSeconds: median(answeredAt) / 1000,
      medianFirstChunkSeconds: median(streams.arrivals().map((a) => a.firstAt - started)) / 1000,
      medianLastChunkSeconds: median(streams.arrivals().map((a) => a.lastAt - started)) / 1000,
      daemonCpuSeconds,
      daemonCpuMicrosPerChunk: (daemonCpuSeconds * 1e6) / (sessions * chunks),
      benchCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
      rss: {
        beforeSessionsMiB,
        oneSessionMiB,
        idleSessionsMiB,
        perIdleSessionKiB: ((idleSessionsMiB - beforeSessionsMiB) * 1024) / sessions,
        perIdleSessionMarginalKiB: ((idleSessionsMiB - oneSessionMiB) * 1024) / Math.max(1, sessions - 1),
        peakSampledMiB,
        rssSamples: samples,
        peakHwmMiB,
        streamEndMiB,
        afterSettleMiB,
      },
      loadAverage: loadavg(),
      daemonDrops: daemon.stderr().split('\n').filter((line) => line.includes('closing')),
    };
  } catch (error) {
    throw new Error(`scale ${name} failed: ${(error as Error).message}\ndaemon stderr:\n${daemon.stderr().slice(-2000)}`);
  } finally {
    for (const client of clients) client.close();
    await daemon.stop();
    cleanup();
    rmSync(workspace, { recursive: true, force: true });
  }
}
