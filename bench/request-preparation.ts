import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveAgentdPaths } from '../src/config/agentd-paths.js';
import { openStore } from '../src/store/open-store.js';
import { fillSession } from './history.js';
import { benchHome, median, spawnStdioDaemon } from './support/daemon-client.js';
import { listenOnLoopback } from './support/listen-on-loopback.js';
import { processCpuMs } from './support/proc-stats.js';
import { chatFrames } from './support/sse-server.js';

/** One history length's figures (see README.md, "Preparing a request over a long history"). */
export interface PreparationFigures {
  messages: number;
  prompts: number;
  /** `session/prompt` sent → the model request's headers at the vendor, median over the prompts after the warm-up. */
  prepareMedianMs: number;
  /** The daemon's CPU time over the same span (10 ms ticks), median. */
  prepareCpuMedianMs: number;
  /** JSON.stringify of the same request body (parsed back from what the vendor received), in the bench process, median of 5. */
  stringifyMedianMs: number;
  /** prepareMedianMs over stringifyMedianMs: the goal is at most 1.5 at 10,000 messages. */
  ratio: number;
  bodyMb: number;
  bodyMessages: number;
  /** The timed prompts' span on the monotonic clock, for summarise-cpu-profile.js --from/--to. */
  fromUs: number;
  toUs: number;
}

/**
 * The daemon's own time to prepare one model request over a long history: a session of
 * N messages (history.ts's fillSession) is loaded into a fresh `agentd serve --stdio`,
 * then prompted `prompts` times; each prompt is timed from `session/prompt` sent to the
 * request's headers arriving at a loopback vendor in this process (the body is written
 * with them, after its JSON.stringify), against JSON.stringify of that same body. The
 * model's window is set huge so no compaction runs: what is timed is the preparation.
 */
export async function benchRequestPreparation(sizes = [100, 1_000, 10_000], prompts = 9, warmup = 2): Promise<PreparationFigures[]> {
  const figures: PreparationFigures[] = [];
  for (const messages of sizes) figures.push(await oneLength(messages, prompts, warmup));
  return figures;
}

async function oneLength(messages: number, prompts: number, warmup: number): Promise<PreparationFigures> {
  let arrived: (() => void) | undefined;
  let lastBody = '';
  const server = http.createServer((req, res) => {
    const at = performance.now();
    arrived?.();
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      lastBody = Buffer.concat(parts).toString('utf8');
      arrivals.push(at);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chatFrames(['ok']).join(''));
    });
  });
  const arrivals: number[] = [];
  const { url, close } = await listenOnLoopback(server);
  const { home, cleanup } = benchHome({
    model: 'local/bench',
    providers: { local: { type: 'openai-chat', baseUrl: `${url}/v1`, models: { bench: { contextWindow: 1_000_000_000, maxOutputTokens: 8_192 } } } },
  });
  const project = mkdtempSync(join(tmpdir(), 'agentd-bench-project-'));
  const store = openStore(resolveAgentdPaths({ AGENTD_HOME: home }).databaseFile);
  // Written by the session's own model, as a long session mostly is (another model's messages take the hand-off path).
  await fillSession(store, 'bench-history', project, messages, 'local/bench');
  await store.close();
  const daemon = spawnStdioDaemon(home);
  const times: number[] = [];
  const cpu: number[] = [];
  const span = { fromUs: 0, toUs: 0 };
  try {
    await daemon.connection.sendRequest('initialize', { protocolVersion: 1 });
    await daemon.connection.sendRequest('session/load', { sessionId: 'bench-history', cwd: project, mcpServers: [] });
    for (let i = 0; i < warmup + prompts; i++) {
      if (i === warmup) span.fromUs = monotonicUs();
      const headersArrived = new Promise<number>((resolve) => (arrived = () => resolve(processCpuMs(daemon.child.pid))));
      const cpuBefore = processCpuMs(daemon.child.pid);
      const sent = performance.now();
      const answer = daemon.connection.sendRequest('session/prompt', { sessionId: 'bench-history', prompt: [{ type: 'text', text: `go ${i}` }] });
      const cpuAtArrival = await headersArrived;
      const result = (await answer) as { stopReason: string };
      if (result.stopReason !== 'end_turn') throw new Error(`prompt ${i} ended ${JSON.stringify(result)}`);
      span.toUs = monotonicUs();
      if (i >= warmup) {
        times.push(arrivals.at(-1)! - sent);
        cpu.push(cpuAtArrival - cpuBefore);
      }
    }
  } finally {
    daemon.connection.dispose();
    daemon.child.stdin.end();
    await new Promise((resolve) => daemon.child.once('exit', resolve));
    await close();
    cleanup();
    rmSync(project, { recursive: true, force: true });
  }
  const body = JSON.parse(lastBody) as { messages: unknown[] };
  const stringify: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    JSON.stringify(body);
    stringify.push(performance.now() - start);
  }
  const prepareMedianMs = median(times);
  const stringifyMedianMs = median(stringify);
  return {
    messages,
    prompts,
    prepareMedianMs: round(prepareMedianMs),
    prepareCpuMedianMs: median(cpu),
    stringifyMedianMs: round(stringifyMedianMs),
    ratio: round(prepareMedianMs / stringifyMedianMs),
    bodyMb: round(Buffer.byteLength(lastBody) / 1e6),
    bodyMessages: body.messages.length,
    ...span,
  };
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
