import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CLI, DAEMON_NODE_ARGS, benchHome } from '../support/daemon-client.js';
import { endChild } from '../support/end-child.js';
import { readJsonlLines } from './jsonl-lines.js';
import { processCpuMs as cpuMs, statusMiB } from '../support/proc-stats.js';
import { relayRunFrom, type RelayContender, type RelayRun } from './relay-run.js';
import { WireTally } from './wire-tally.js';

/**
 * `agentd serve --stdio` relaying to the plainest JSON-RPC client: it reads stdout,
 * splits lines, JSON.parses each and keeps the text of `agent_message_chunk`s, so the
 * figures are the daemon's rather than a client library's. Each run prompts a new
 * session (the history of earlier runs is not resent); the daemon stays up between runs.
 */
export async function startAgentdStdio(name: string, vendorUrl: string, expected: string, chunkChars: number, cli = CLI): Promise<RelayContender> {
  const { home, cleanup } = benchHome({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${vendorUrl}/v1` } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const child = spawn(process.execPath, [...DAEMON_NODE_ARGS, cli, 'serve', '--stdio'], { env: { ...process.env, AGENTD_HOME: home }, stdio: ['pipe', 'pipe', 'inherit'] });
  const pid = child.pid!;
  let nextId = 1;
  const waiting = new Map<number, (message: any) => void>();
  let tally: WireTally | undefined;
  readJsonlLines(child.stdout, (line, bytes) => {
    const message = JSON.parse(line);
    const update = message.method === 'session/update' ? message.params.update : undefined;
    if (update?.sessionUpdate === 'agent_message_chunk') tally?.content(update.content.text, bytes);
    else tally?.other(bytes);
    if (message.id !== undefined && message.method === undefined) waiting.get(message.id)?.(message);
  });
  const call = (method: string, params: unknown): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (message) => {
        waiting.delete(id);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await call('initialize', { protocolVersion: 1 });

  return {
    name,
    async run(): Promise<RelayRun> {
      const { sessionId } = await call('session/new', { cwd: workspace, mcpServers: [] });
      const wire = new WireTally();
      const cpuBefore = cpuMs(pid);
      tally = wire;
      const started = performance.now();
      const result = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      const finished = performance.now();
      const ms = finished - started;
      tally = undefined;
      const cpu = cpuMs(pid) - cpuBefore;
      if (result.stopReason !== 'end_turn' || wire.text !== expected) {
        throw new Error(`${name}: relay broken: ${JSON.stringify(result)}, ${wire.text.length} of ${expected.length} characters`);
      }
      return relayRunFrom(wire, { ms, finishedAt: finished, cpuMs: cpu, chunkChars, peakRssMiB: statusMiB(pid, 'VmHWM') });
    },
    async close(): Promise<void> {
      await endChild(child);
      cleanup();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
