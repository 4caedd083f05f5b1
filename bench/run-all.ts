import { benchAbortLatency } from './abort-latency.js';
import { benchColdStart } from './cold-start.js';
import { benchColdStartSnapshot } from './cold-start-snapshot.js';
import { benchConfigReload } from './config-reload.js';
import { benchFirstRender } from './dashboard/first-render.js';
import { benchPageWeight } from './dashboard/page-weight.js';
import { benchStreamResponsiveness } from './dashboard/stream-responsiveness.js';
import { benchFirstPrompt } from './first-prompt.js';
import { benchHistory, type StoreKind } from './history.js';
import { benchLoopOverhead } from './loop-overhead.js';
import { benchRequestPreparation } from './request-preparation.js';
import { benchRelay } from './relay/bench-relay.js';
import { benchScale } from './scale/scale.js';
import { benchStartUp } from './start-up.js';
import { benchStartUpInstructions } from './start-up-instructions.js';

/** Runs every benchmark and prints the figures as JSON lines (copied into RESULTS.md). */
async function main(): Promise<void> {
  const only = process.argv[2];
  // `relay 20000`: a longer stream, past the daemon's warm-up (5,000 by default).
  const relayChunks = Number(process.argv[3] ?? 5000);
  if (!only || only === 'cold-start') console.log(JSON.stringify({ bench: 'cold-start', ...(await benchColdStart()) }));
  // `start-up 11 2000`: runs, chunks in the reply after which the serve daemons' peak RSS is read.
  if (!only || only === 'start-up') console.log(JSON.stringify({ bench: 'start-up', ...(await benchStartUp(Number(process.argv[3] ?? 11), Number(process.argv[4] ?? 2000))) }));
  // `start-up-instructions 2 DIR,DIR`: runs, other builds' bin folders; needs valgrind, so only when asked for.
  if (only === 'start-up-instructions') console.log(JSON.stringify({ bench: 'start-up-instructions', ...(await benchStartUpInstructions(Number(process.argv[3] ?? 2), (process.argv[4] ?? '').split(',').filter((dir) => dir !== ''))) }));
  if (!only || only === 'snapshot') console.log(JSON.stringify({ bench: 'cold-start-snapshot', ...(await benchColdStartSnapshot()) }));
  if (!only || only === 'first-prompt') console.log(JSON.stringify({ bench: 'first-prompt', ...(await benchFirstPrompt(11, Number(only === 'first-prompt' ? (process.argv[3] ?? 0) : 0))) }));
  if (!only || only === 'loop') console.log(JSON.stringify({ bench: 'loop-overhead', ...(await benchLoopOverhead()) }));
  if (!only || only === 'abort') console.log(JSON.stringify({ bench: 'abort-latency', ...(await benchAbortLatency()) }));
  if (!only || only === 'config') console.log(JSON.stringify({ bench: 'config-reload', ...(await benchConfigReload()) }));
  if (!only || only === 'history') console.log(JSON.stringify({ bench: 'history', ...(await benchHistory(Number(process.argv[3] ?? 10_000), Number(process.argv[4] ?? 7), historyStore(process.argv[5]))) }));
  // `request 100,1000,10000 9`: history lengths, then timed prompts per length.
  if (!only || only === 'request') {
    const sizes = process.argv[3]?.split(',').map(Number);
    for (const figures of await benchRequestPreparation(sizes, Number(process.argv[4] ?? 9))) console.log(JSON.stringify({ bench: 'request-preparation', ...figures }));
  }
  if (!only || only === 'scale') await benchScale(Number(process.argv[3] ?? 100), Number(process.argv[4] ?? 2000), Number(process.argv[5] ?? 3), (result) => console.log(JSON.stringify({ bench: 'scale', ...result })));
  // The dashboard in headless Chromium (dashboard/run-dashboard.js runs each part with other sizes).
  if (!only || only === 'dashboard') {
    console.log(JSON.stringify({ bench: 'dashboard-weight', ...benchPageWeight() }));
    console.log(JSON.stringify({ bench: 'dashboard-first-render', ...(await benchFirstRender()) }));
    console.log(JSON.stringify({ bench: 'dashboard-stream', ...(await benchStreamResponsiveness()) }));
  }
  // The relay against the openai SDK and pi, both write modes (relay/bench-relay.ts prints a line per stream).
  if (!only || only === 'relay') {
    await benchRelay({ chunks: relayChunks, piChunks: 2000, longChunks: 50_000, modes: ['16k', 'event'], runs: 7, warmup: 3, pi: true, baseCli: process.env.AGENTD_BENCH_BASE_CLI });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/** `history`'s third argument: which store to measure (the SQLite file by default). */
function historyStore(argument: string | undefined): StoreKind {
  if (argument === undefined || argument === 'sqlite' || argument === 'postgres') return argument ?? 'sqlite';
  throw new Error(`history: unknown store "${argument}"; use sqlite or postgres`);
}
