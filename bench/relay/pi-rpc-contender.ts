import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { readJsonlLines } from './jsonl-lines.js';
import { endChild } from '../support/end-child.js';
import { processCpuMs as cpuMs, statusMiB } from '../support/proc-stats.js';
import { relayRunFrom, type RelayContender, type RelayRun } from './relay-run.js';
import { WireTally } from './wire-tally.js';

/**
 * pi (`@mariozechner/pi-coding-agent`) in its RPC mode relaying the same stream.
 * Sources, in bench/node_modules/@mariozechner/pi-coding-agent: docs/rpc.md (`--mode rpc`,
 * the `prompt` and `new_session` commands, JSONL events: `message_update` with
 * `assistantMessageEvent.type: "text_delta"` and `delta`, then `agent_end`);
 * docs/models.md (a custom OpenAI-compatible provider in `<agent dir>/models.json`,
 * `api: "openai-completions"`, `compat.supportsDeveloperRole`); dist/config.js (the agent
 * dir from `PI_CODING_AGENT_DIR`); README.md ("--offline or PI_OFFLINE=1 disable all
 * startup network operations", PI_TELEMETRY=0). It runs with a temporary HOME and agent
 * dir, offline, without a session file.
 */
export async function startPiRpc(vendorUrl: string, expected: string, chunkChars: number): Promise<RelayContender> {
  // The package exports only its ESM entry (dist/index.js); its `pi` bin is dist/cli.js beside it.
  const cli = join(dirname(fileURLToPath(import.meta.resolve('@mariozechner/pi-coding-agent'))), 'cli.js');
  const root = mkdtempSync(join(tmpdir(), 'agentd-bench-pi-'));
  const agentDir = join(root, 'agent');
  const workspace = join(root, 'ws');
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(workspace);
  const models = {
    providers: {
      local: {
        baseUrl: `${vendorUrl}/v1`,
        api: 'openai-completions',
        apiKey: 'bench-key',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'bench', reasoning: false, contextWindow: 1_000_000, maxTokens: 8192 }],
      },
    },
  };
  writeFileSync(join(agentDir, 'models.json'), JSON.stringify(models));
  const env = { ...process.env, HOME: root, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_TELEMETRY: '0', PI_SKIP_VERSION_CHECK: '1' };
  const child = spawn(process.execPath, [cli, '--mode', 'rpc', '--offline', '--no-session', '--provider', 'local', '--model', 'bench'], {
    cwd: workspace,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pid = child.pid!;
  let nextId = 1;
  const waiting = new Map<string, (message: any) => void>();
  let tally: WireTally | undefined;
  let onAgentEnd: (() => void) | undefined;
  readJsonlLines(child.stdout, (line, bytes) => {
    const message = JSON.parse(line);
    const event = message.type === 'message_update' ? message.assistantMessageEvent : undefined;
    if (event?.type === 'text_delta') tally?.content(event.delta, bytes);
    else tally?.other(bytes);
    if (message.type === 'response') waiting.get(message.id)?.(message);
    if (message.type === 'agent_end') onAgentEnd?.();
  });
  const command = (type: string, fields: Record<string, unknown> = {}): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = String(nextId++);
      waiting.set(id, (message) => {
        waiting.delete(id);
        if (message.success === true) resolve(message.data);
        else reject(new Error(`pi ${type}: ${JSON.stringify(message)}`));
      });
      child.stdin.write(`${JSON.stringify({ id, type, ...fields })}\n`);
    });

  return {
    name: 'pi --mode rpc',
    async run(): Promise<RelayRun> {
      // A fresh conversation per run, as agentd's runs each prompt a new session.
      await command('new_session');
      const wire = new WireTally();
      const ended = new Promise<void>((resolve) => (onAgentEnd = resolve));
      const cpuBefore = cpuMs(pid);
      tally = wire;
      const started = performance.now();
      await command('prompt', { message: 'go' });
      await ended;
      const finished = performance.now();
      const ms = finished - started;
      tally = undefined;
      onAgentEnd = undefined;
      const cpu = cpuMs(pid) - cpuBefore;
      if (wire.text !== expected) throw new Error(`pi: relay broken: ${wire.text.length} of ${expected.length} characters`);
      return relayRunFrom(wire, { ms, finishedAt: finished, cpuMs: cpu, chunkChars, peakRssMiB: statusMiB(pid, 'VmHWM') });
    },
    async close(): Promise<void> {
      await endChild(child);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
