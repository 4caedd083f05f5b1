import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchHome, median, percentile, spawnStdioDaemon } from './support/daemon-client.js';
import { startSseServer } from './support/sse-server.js';

/**
 * From sending `session/abort` while a response streams (the server keeps the stream
 * open) to receiving the prompt's `cancelled` answer, over stdio, as a client sees it.
 */
export async function benchAbortLatency(runs = 100): Promise<{ runs: number; medianMs: number; p90Ms: number; maxMs: number }> {
  const base = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'bench' };
  const first = `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'streaming…' }, finish_reason: null }] })}\n\n`;
  // One chunk, then the server holds the stream open: the turn only ends by abort.
  const server = await startSseServer([first], { holdOpen: true });
  const { home, cleanup } = benchHome({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const daemon = spawnStdioDaemon(home);
  const times: number[] = [];
  try {
    let onChunk: (() => void) | undefined;
    daemon.connection.onNotification('session/update', (params: { update: { sessionUpdate: string } }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk') onChunk?.();
    });
    const call = (method: string, params: unknown): { done: Promise<any> } => ({ done: daemon.connection.sendRequest(method, params) });
    await call('initialize', { protocolVersion: 1 }).done;
    const { sessionId } = await call('session/new', { cwd: workspace, mcpServers: [] }).done;
    for (let i = 0; i < runs + 10; i++) {
      const chunk = new Promise<void>((resolve) => (onChunk = resolve));
      const prompt = call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      await chunk;
      const t0 = performance.now();
      void call('session/abort', { sessionId }).done;
      const result = await prompt.done;
      const elapsed = performance.now() - t0;
      if (result.stopReason !== 'cancelled') throw new Error(`expected cancelled, got ${JSON.stringify(result)}`);
      if (i >= 10) times.push(elapsed);
    }
  } finally {
    daemon.child.kill('SIGKILL');
    await server.close();
    cleanup();
    rmSync(workspace, { recursive: true, force: true });
  }
  return { runs, medianMs: median(times), p90Ms: percentile(times, 90), maxMs: Math.max(...times) };
}
