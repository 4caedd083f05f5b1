import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { startDaemon } from '../src/daemon/start-daemon.js';
import { noClientAsker } from '../src/project/permission-asker.js';
import { median, percentile } from './support/daemon-client.js';
import { startScriptedServer, toolCallSse } from './support/scripted-sse-server.js';
import { chatFrames } from './support/sse-server.js';

/**
 * The loop's own cost per model request: prompts that make one tool round trip (the
 * `todo` tool, then a one-word answer) against a loopback server that answers at once,
 * in-process, minus the same two HTTP exchanges made directly with undici.
 */
export async function benchLoopOverhead(runs = 300): Promise<{ runs: number; turnMedianMs: number; httpMedianMs: number; overheadPerRequestMedianMs: number; overheadPerRequestP90Ms: number }> {
  const toolCall = toolCallSse('call_1', 'todo', { todos: [{ content: 'step', status: 'pending' }] });
  const answer = chatFrames(['done']).join('');
  const server = await startScriptedServer([toolCall, answer]);
  const home = mkdtempSync(join(tmpdir(), 'agentd-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } } }));
  const started = await startDaemon({ cwd: workspace, env: { ...process.env, AGENTD_HOME: home }, version: 'bench', permissionMode: 'bypass', asker: noClientAsker, write: () => {} });
  const turns: number[] = [];
  const http: number[] = [];
  try {
    let session = await started.daemon.sessions.create({ cwd: workspace });
    for (let i = 0; i < runs + 20; i++) {
      const t0 = performance.now();
      const outcome = await session.submit([{ type: 'text', text: 'plan it' }]).outcome;
      const t1 = performance.now();
      if (outcome.stopReason !== 'end_turn') throw new Error(`unexpected stop ${outcome.stopReason}`);
      // The same two exchanges without the loop: POST, read the whole SSE body.
      for (const _ of [0, 1]) {
        const response = await request(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
        await response.body.text();
      }
      const t2 = performance.now();
      if (i >= 20) {
        turns.push(t1 - t0);
        http.push(t2 - t1);
      }
      // Keep the history from growing without bound across runs: a fresh session every 50 prompts.
      if (i % 50 === 49) session = await started.daemon.sessions.create({ cwd: workspace });
    }
  } finally {
    await started.shutdown();
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
  const overhead = turns.map((t, i) => (t - http[i]!) / 2);
  return { runs, turnMedianMs: median(turns), httpMedianMs: median(http), overheadPerRequestMedianMs: median(overhead), overheadPerRequestP90Ms: percentile(overhead, 90) };
}
