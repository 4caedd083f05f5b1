import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './support/daemon-client.js';
import { processCpuMs, processFaults, statusMiB } from './support/proc-stats.js';
import { chatFrames, startSseServer } from './support/sse-server.js';
import { lineReader } from './support/line-reader.js';
import { BARE_NODE_ARGS } from './support/time-to-answer.js';

/** The `agentd` bin (the launcher that starts `serve` from the snapshot) and the CommonJS entry it runs otherwise. */
const BIN_DIR = fileURLToPath(new URL('../bin/', import.meta.url));

interface Contender {
  label: string;
  command: string;
  args: string[];
  /**
   * `own`: a home of the contender's own, kept across its runs as an editor's is (the
   * database exists after the first run; nothing serves it between runs: an `acp` bridge's
   * daemon, started on demand, has exited before the next run); `shared`: one with a daemon
   * already serving it.
   */
  home: 'own' | 'shared';
  /** Whether to stream a reply and read the process's peak RSS (VmHWM) after it: only where the process is the daemon. */
  reply: boolean;
}

interface Figures {
  initializeMs: number[];
  sessionNewMs: number[];
  initializeCpuMs: number[];
  /** Minor page faults and system CPU time at the `initialize` answer. */
  initializeMinorFaults: number[];
  initializeSystemMs: number[];
  sessionNewCpuMs: number[];
  peakRssMiB: number[];
}

/**
 * Spawn → `initialize` answered and spawn → `session/new` answered for what an editor
 * starts, side by side with a bare `node` answering one line, interleaved (the order
 * rotates every run): `agentd serve --stdio` through the bin (started from the snapshot),
 * the same without the snapshot (dist/bin/agentd.cjs, what the launcher falls back to),
 * `agentd acp` with the shared daemon running, and `agentd acp` with none (it starts one).
 * For the two `serve` rows, the daemon's peak RSS (VmHWM) after a `replyChunks`-chunk reply.
 * `AGENTD_BENCH_BASE_CLI` adds another build's `serve --stdio` and `acp` (before/after), run by node;
 * `AGENTD_BENCH_BASE_BIN` other builds' `agentd` bins (comma-separated): their `serve --stdio` through the launcher,
 * and their `acp` with no daemon (each keeping its own home, so its daemon is its own build's).
 * NODE_EXTRA_CA_CERTS is removed from every contender's environment (it costs ~130 ms a process).
 */
export async function benchStartUp(runs = 11, replyChunks = 2000): Promise<Record<string, Record<string, number>>> {
  const pieces = Array.from({ length: replyChunks }, (_, i) => `piece ${i} `);
  const vendor = await startSseServer(chatFrames(pieces));
  const config = { model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${vendor.url}/v1` } }, server: { idleExitMs: 300 } };
  const homes: string[] = [];
  const makeHome = (): string => {
    const home = mkdtempSync(join(tmpdir(), 'agentd-bench-start-'));
    mkdirSync(join(home, 'config'));
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify(config));
    homes.push(home);
    return home;
  };
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const contenders: Contender[] = [
    { label: 'bare node', command: process.execPath, args: BARE_NODE_ARGS, home: 'own', reply: false },
    { label: 'serve --stdio (bin: snapshot)', command: join(BIN_DIR, 'agentd'), args: ['serve', '--stdio'], home: 'own', reply: true },
    { label: 'serve --stdio (no snapshot)', command: process.execPath, args: [join(BIN_DIR, 'agentd.cjs'), 'serve', '--stdio'], home: 'own', reply: true },
    { label: 'acp, daemon running', command: join(BIN_DIR, 'agentd'), args: ['acp'], home: 'shared', reply: false },
    { label: 'acp, no daemon', command: join(BIN_DIR, 'agentd'), args: ['acp'], home: 'own', reply: false },
  ];
  // Other builds' `agentd` bins (comma-separated), each started through its launcher as an editor would.
  for (const bin of (process.env.AGENTD_BENCH_BASE_BIN ?? '').split(',').filter((path) => path !== '')) {
    contenders.push(
      { label: `serve --stdio (${binName(bin)} bin)`, command: bin, args: ['serve', '--stdio'], home: 'own', reply: true },
      { label: `acp, no daemon (${binName(bin)} bin)`, command: bin, args: ['acp'], home: 'own', reply: false },
    );
  }
  const base = process.env.AGENTD_BENCH_BASE_CLI;
  if (base) {
    contenders.push(
      { label: 'base: serve --stdio', command: process.execPath, args: [base, 'serve', '--stdio'], home: 'own', reply: true },
      { label: 'base: acp, daemon running', command: process.execPath, args: [base, 'acp'], home: 'shared', reply: false },
    );
  }
  // One shared daemon per build, as an editor's earlier chat left it.
  const shared = new Map<string, string>();
  const own = new Map<string, string>();
  const daemons: ChildProcessWithoutNullStreams[] = [];
  for (const contender of contenders.filter((c) => c.home === 'shared')) {
    const home = makeHome();
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ ...config, server: {} }));
    const entry = contender.command === process.execPath ? contender.args[0]! : join(BIN_DIR, 'agentd.cjs');
    const daemon = spawn(process.execPath, [entry, 'serve', '--socket'], { env: { ...env, AGENTD_HOME: home }, stdio: 'pipe' });
    daemons.push(daemon);
    shared.set(contender.label, home);
    // Listening before the warm-up bridge comes: one that found nothing would start a daemon
    // of its own on demand, which would win the directory or not, and outlive the run by
    // its 30-minute idle exit.
    while (!(await serves(join(home, 'run', 'agentd.sock')))) await new Promise((resolve) => setTimeout(resolve, 10));
    // Warmed by one bridge, so that the runs measure the bridge and not the daemon's own first answer.
    await timeOne(contender, home, env, workspace);
  }
  const figures = new Map<string, Figures>(contenders.map((c) => [c.label, { initializeMs: [], sessionNewMs: [], initializeCpuMs: [], initializeMinorFaults: [], initializeSystemMs: [], sessionNewCpuMs: [], peakRssMiB: [] }]));
  try {
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < contenders.length; i++) {
        const contender = contenders[(run + i) % contenders.length]!;
        let home = shared.get(contender.label);
        if (home === undefined) {
          home = own.get(contender.label) ?? makeHome();
          own.set(contender.label, home);
          await untilNothingServes(join(home, 'run', 'agentd.sock'));
        }
        const result = await timeOne(contender, home, env, workspace);
        const into = figures.get(contender.label)!;
        into.initializeMs.push(result.initializeMs);
        into.initializeCpuMs.push(result.initializeCpuMs);
        into.initializeMinorFaults.push(result.initializeFaults.minorFaults);
        into.initializeSystemMs.push(result.initializeFaults.systemMs);
        if (result.sessionNewMs !== undefined) into.sessionNewMs.push(result.sessionNewMs);
        if (result.sessionNewCpuMs !== undefined) into.sessionNewCpuMs.push(result.sessionNewCpuMs);
        if (result.peakRssMiB !== undefined) into.peakRssMiB.push(result.peakRssMiB);
      }
    }
  } finally {
    for (const daemon of daemons) daemon.stdin.end();
    for (const daemon of daemons) daemon.kill('SIGTERM');
    await vendor.close();
    // Daemons started on demand by the `acp, no daemon` runs exit 300 ms after their bridge has gone.
    for (const home of own.values()) await untilNothingServes(join(home, 'run', 'agentd.sock'));
    for (const home of homes) rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
  const bare = median(figures.get('bare node')!.initializeMs);
  const table: Record<string, Record<string, number>> = {};
  for (const [label, f] of figures) {
    const row: Record<string, number> = { initializeMs: median(f.initializeMs), initializeCpuMs: median(f.initializeCpuMs), initializeOverBare: median(f.initializeMs) / bare };
    // Mean, not median: system time moves in 10 ms ticks, a few runs at a time.
    Object.assign(row, { initializeMinorFaults: median(f.initializeMinorFaults), initializeSystemMs: f.initializeSystemMs.reduce((sum, ms) => sum + ms, 0) / f.initializeSystemMs.length });
    if (f.sessionNewMs.length) Object.assign(row, { sessionNewMs: median(f.sessionNewMs), sessionNewCpuMs: median(f.sessionNewCpuMs), sessionNewOverBare: median(f.sessionNewMs) / bare });
    if (f.peakRssMiB.length) row.peakRssMiB = median(f.peakRssMiB);
    table[label] = row;
  }
  return table;
}

/** A bin's name in the table: its folder (a copy of dist/bin inside dist/), or the tree's for a whole build's dist/bin/agentd. */
function binName(bin: string): string {
  const folder = dirname(bin);
  return basename(folder) === 'bin' && basename(dirname(folder)) === 'dist' ? basename(dirname(dirname(folder))) : basename(folder);
}

/** Waits until no daemon answers on `socketPath` (a daemon started on demand exits `server.idleExitMs` after its last client). */
async function untilNothingServes(socketPath: string): Promise<void> {
  while (await serves(socketPath)) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Whether something accepts connections on `socketPath`. */
function serves(socketPath: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** One spawn: `initialize`, `session/new`, optionally a prompt and its reply; then stdin ends and the process exits. */
async function timeOne(
  contender: Contender,
  home: string,
  env: NodeJS.ProcessEnv,
  workspace: string,
): Promise<{ initializeMs: number; initializeCpuMs: number; initializeFaults: { minorFaults: number; systemMs: number }; sessionNewMs?: number; sessionNewCpuMs?: number; peakRssMiB?: number }> {
  const start = performance.now();
  const child = spawn(contender.command, contender.args, { env: { ...env, AGENTD_HOME: home }, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const answers = lineReader(child);
  const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...(message as object) })}\n`);
  send({ id: 0, method: 'initialize', params: { protocolVersion: 1 } });
  await answers.next((line) => line.includes('"id":0') || line === '{}');
  const initializeMs = performance.now() - start;
  const initializeCpuMs = processCpuMs(child.pid);
  const initializeFaults = processFaults(child.pid);
  if (contender.label === 'bare node') {
    child.stdin.end();
    await exited;
    return { initializeMs, initializeCpuMs, initializeFaults };
  }
  send({ id: 1, method: 'session/new', params: { cwd: workspace, mcpServers: [] } });
  const created = JSON.parse(await answers.next((line) => line.includes('"id":1'))) as { result?: { sessionId: string }; error?: unknown };
  const sessionNewMs = performance.now() - start;
  const sessionNewCpuMs = processCpuMs(child.pid);
  if (!created.result) throw new Error(`${contender.label}: session/new failed: ${JSON.stringify(created.error)}`);
  let peakRssMiB: number | undefined;
  if (contender.reply) {
    send({ id: 2, method: 'session/prompt', params: { sessionId: created.result.sessionId, prompt: [{ type: 'text', text: 'go' }] } });
    const answer = await answers.next((line) => line.includes('"id":2'));
    if (!answer.includes('end_turn')) throw new Error(`${contender.label}: the prompt ended ${answer}`);
    peakRssMiB = statusMiB(child.pid!, 'VmHWM');
  }
  child.stdin.end();
  await exited;
  return { initializeMs, initializeCpuMs, initializeFaults, sessionNewMs, sessionNewCpuMs, ...(peakRssMiB === undefined ? {} : { peakRssMiB }) };
}

