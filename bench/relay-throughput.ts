import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchHome, spawnStdioDaemon } from './support/daemon-client.js';
import { chatFrames, startSseServer } from './support/sse-server.js';

/**
 * A 5,000-chunk chat-completions stream relayed from a loopback server through the
 * daemon to a stdio client: chunks per second, and bytes on the wire per chunk at the
 * start and the end of the stream (equal when a chunk costs only its own size).
 */
export async function benchRelayThroughput(chunks = 5000): Promise<{
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
  bytesPerChunkFirst100: number;
  bytesPerChunkLast100: number;
  /** The daemon's peak resident memory (VmHWM) at the end of the stream. */
  peakRssMiB: number;
}> {
  const pieces = Array.from({ length: chunks }, (_, i) => `tok${String(i).padStart(5, '0')} `);
  const server = await startSseServer(chatFrames(pieces));
  const { home, cleanup } = benchHome({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const daemon = spawnStdioDaemon(home);
  const chunkLineBytes: number[] = [];
  let started = 0;
  let finished = 0;
  let peakRssMiB = 0;
  try {
    daemon.onLine((line) => {
      if (line.includes('"sessionUpdate":"agent_message_chunk"')) chunkLineBytes.push(Buffer.byteLength(line) + 1);
    });
    const call = (method: string, params: unknown): Promise<any> => daemon.connection.sendRequest(method, params);
    await call('initialize', { protocolVersion: 1 });
    const { sessionId } = await call('session/new', { cwd: workspace, mcpServers: [] });
    started = performance.now();
    const result = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    finished = performance.now();
    if (result.stopReason !== 'end_turn' || chunkLineBytes.length !== chunks) {
      throw new Error(`relay run broken: ${JSON.stringify(result)} after ${chunkLineBytes.length} chunks`);
    }
    peakRssMiB = peakRss(daemon.child.pid!);
  } finally {
    daemon.child.kill('SIGKILL');
    await server.close();
    cleanup();
    rmSync(workspace, { recursive: true, force: true });
  }
  const seconds = (finished - started) / 1000;
  const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    chunks,
    seconds,
    chunksPerSecond: chunks / seconds,
    bytesPerChunkFirst100: avg(chunkLineBytes.slice(0, 100)),
    bytesPerChunkLast100: avg(chunkLineBytes.slice(-100)),
    peakRssMiB,
  };
}

/** A process's peak resident set size in MiB, from /proc (Linux). */
function peakRss(pid: number): number {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kib === undefined ? NaN : Number(kib) / 1024;
}
