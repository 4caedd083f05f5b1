import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchHome, median, spawnStdioDaemon } from './support/daemon-client.js';
import { processCpuMs } from './support/proc-stats.js';
import { chatFrames, startSseServer } from './support/sse-server.js';

/**
 * The first prompt of a fresh daemon, as an editor sees it: spawn → `initialize`
 * answered, spawn → `session/new` answered, then `session/prompt` → the model request
 * arriving at the loopback vendor (what the daemon does before it asks the model), for
 * the first prompt of the session and for a second one, and for each the TTFT added (the
 * vendor's first byte → the first `agent_message_chunk` at the client). A fresh daemon per run.
 * The first prompt is sent as soon as `session/new` answers, or `promptDelayMs` later (a
 * user typing it: the daemon is idle meanwhile).
 */
export async function benchFirstPrompt(runs = 11, promptDelayMs = 0): Promise<Record<string, number>> {
  let arrived = 0;
  let arrivedUs = 0;
  let answered = 0;
  let answeredUs = 0;
  const server = await startSseServer(chatFrames(['ok']), {
    onRequest: () => {
      arrived = performance.now();
      arrivedUs = monotonicUs();
    },
    onAnswer: () => {
      answered = performance.now();
      answeredUs = monotonicUs();
    },
  });
  // The last run's moments on the monotonic clock, the one a daemon's --cpu-prof profile uses:
  // summarise-cpu-profile.js --from/--to reads the daemon's work between two of them.
  const marks = { spawnUs: 0, sessionNewUs: 0, firstPromptUs: 0, firstRequestUs: 0, firstAnswerUs: 0, firstChunkUs: 0 };
  const { home, cleanup } = benchHome({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const initialize: number[] = [];
  const sessionNew: number[] = [];
  const initializeCpu: number[] = [];
  const sessionNewCpu: number[] = [];
  const first: number[] = [];
  const second: number[] = [];
  // TTFT added: the vendor's first byte → the first agent_message_chunk at the client.
  const firstTtft: number[] = [];
  const secondTtft: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const spawned = performance.now();
      marks.spawnUs = monotonicUs();
      const daemon = spawnStdioDaemon(home);
      const call = (method: string, params: unknown): Promise<any> => daemon.connection.sendRequest(method, params);
      let firstChunk = 0;
      let firstChunkUs = 0;
      daemon.connection.onNotification('session/update', (params: { update: { sessionUpdate: string } }) => {
        if (params.update.sessionUpdate !== 'agent_message_chunk' || firstChunk !== 0) return;
        firstChunk = performance.now();
        firstChunkUs = monotonicUs();
      });
      await call('initialize', { protocolVersion: 1 });
      initialize.push(performance.now() - spawned);
      initializeCpu.push(processCpuMs(daemon.child.pid));
      const { sessionId } = await call('session/new', { cwd: workspace, mcpServers: [] });
      sessionNew.push(performance.now() - spawned);
      sessionNewCpu.push(processCpuMs(daemon.child.pid));
      marks.sessionNewUs = monotonicUs();
      if (promptDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, promptDelayMs));
      for (const into of [first, second]) {
        firstChunk = 0;
        const sent = performance.now();
        const sentUs = monotonicUs();
        const answer = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
        if (answer.stopReason !== 'end_turn') throw new Error(`prompt ended ${JSON.stringify(answer)}`);
        into.push(arrived - sent);
        (into === first ? firstTtft : secondTtft).push(firstChunk - answered);
        if (into === first) Object.assign(marks, { firstPromptUs: sentUs, firstRequestUs: arrivedUs, firstAnswerUs: answeredUs, firstChunkUs });
      }
      daemon.connection.dispose();
      daemon.child.stdin.end();
      await new Promise((resolve) => daemon.child.once('exit', resolve));
    }
  } finally {
    await server.close();
    cleanup();
    rmSync(workspace, { recursive: true, force: true });
  }
  return {
    runs,
    promptDelayMs,
    initializeMs: median(initialize),
    sessionNewMs: median(sessionNew),
    initializeCpuMs: median(initializeCpu),
    sessionNewCpuMs: median(sessionNewCpu),
    firstPromptToRequestMs: median(first),
    secondPromptToRequestMs: median(second),
    firstReplyTtftAddedMs: median(firstTtft),
    secondReplyTtftAddedMs: median(secondTtft),
    ...marks,
  };
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
