import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { ClientSideConnection, ndJsonStream, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { answerPieces } from './answer-streams.js';
import type { Contender } from './contenders.js';
import { processTree, sampleTreeMemory, treePssBytes } from './process-tree-memory.js';
import type { SeenRequest, VendorServer } from './vendor-server.js';

/** One run's figures; the bare node has only `initializeMs`. */
export interface RunFigures {
  initializeMs: number;
  sessionNewMs?: number;
  /** session/prompt sent → the model request at the vendor, for the session's first prompt. */
  firstPromptToRequestMs?: number;
  /** session/prompt sent → its answer, for the long reply (a second prompt). */
  streamMs?: number;
  /**
   * First agent_message_chunk at the client − the vendor's first byte, on a reply whose
   * first text delta the vendor writes alone and holds for 100 ms before the rest.
   */
  ttftAddedMs?: number;
  /** Largest sum of VmRSS over the agent's process tree, sampled every 20 ms, in MiB. */
  peakRssMiB: number;
  /** Sum of every tree process's VmHWM, in MiB (catches a peak between samples; processes that exit early count too). */
  hwmSumMiB: number;
  processes: number;
  /** Proportional set size of the tree right after the long reply, in MiB (shared pages counted once). */
  pssAfterReplyMiB?: number;
  /** The tree's processes at the peak: name and VmRSS in MiB. */
  peakBreakdown: Array<{ name: string; rssMiB: number }>;
  chunks?: number;
  textMatches?: boolean;
  /** Bytes the agent wrote to stdout during the long reply's prompt. */
  wireBytes?: number;
  vendorRequests: SeenRequest[];
  /** When the text does not match: where it first differs, and the pieces around there. */
  mismatch?: { at: number; received: string[] };
}

const STEP_TIMEOUT_MS = 120_000;
const MiB = 1024 * 1024;
/**
 * Long enough for an agent to relay one delta before the rest arrives (agentd and codex-acp
 * take a few ms); an agent slower than this (opencode) gets the rest before its first
 * chunk is out, and its figure is still first chunk − first byte.
 */
const TTFT_HOLD_MS = 100;

/**
 * Spawns the contender in `workspace` with a fresh home, drives it with the official ACP
 * client over its stdio, and stops its whole process tree. Prompt 1 (a 3-piece answer)
 * gives the first prompt's time to its model request; prompt 2 the time to first token
 * added (its first delta alone on the wire for 100 ms); prompt 3 is the `chunks`-piece reply.
 */
export async function runContender(contender: Contender, vendor: VendorServer, workspace: string, chunks: number, run: number): Promise<RunFigures> {
  const home = mkdtempSync(join(tmpdir(), `peers-${contender.name}-`));
  const launch = contender.launch(home, vendor.url);
  vendor.takeLog();
  const spawned = performance.now();
  const child = spawn(launch.command, launch.args, { cwd: workspace, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdoutBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
  const memory = sampleTreeMemory(child.pid!);
  const received: string[] = [];
  let firstChunkAt: number | undefined;
  const connection = new ClientSideConnection(
    () => ({
      async requestPermission(params: RequestPermissionRequest) {
        const allow = params.options.find((option) => option.kind === 'allow_once' || option.kind === 'allow_always') ?? params.options[0]!;
        return { outcome: { outcome: 'selected', optionId: allow.optionId } };
      },
      async sessionUpdate(params: SessionNotification) {
        const update = params.update;
        if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
          firstChunkAt ??= performance.now();
          received.push(update.content.text);
        }
      },
    }),
    ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  const step = <T>(what: string, promise: Promise<T>): Promise<T> =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${contender.name}: ${what} timed out`)), STEP_TIMEOUT_MS).unref()),
      exited.then(() => Promise.reject(new Error(`${contender.name} exited during ${what} (code ${child.exitCode})`))),
    ]).catch((error: unknown) => {
      const log = vendor.takeLog().map((r) => `${r.method} ${r.path} (${r.kind})`).join(', ');
      throw new Error(`${(error as Error).message}\nvendor saw: ${log || 'nothing'}\nstderr tail:\n${stderr}`);
    });
  let tree: number[] = [];
  try {
    await step('initialize', connection.initialize({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } }));
    const figures: RunFigures = { initializeMs: performance.now() - spawned, peakRssMiB: 0, hwmSumMiB: 0, processes: 0, peakBreakdown: [], vendorRequests: [] };
    if (!contender.protocol) return finish(figures);
    const { sessionId } = await step('session/new', connection.newSession({ cwd: workspace, mcpServers: [] }));
    figures.sessionNewMs = performance.now() - spawned;

    const firstMarker = `bench-first-${run}-${Date.now()}`;
    const firstRequest = vendor.expect(firstMarker, answerPieces(3));
    const firstSent = performance.now();
    await step('the first prompt', connection.prompt({ sessionId, prompt: [{ type: 'text', text: `Say hello. ${firstMarker}` }] }));
    figures.firstPromptToRequestMs = (await firstRequest).arrivedAt - firstSent;

    const ttftMarker = `bench-ttft-${run}-${Date.now()}`;
    const ttftRequest = vendor.expect(ttftMarker, answerPieces(20), { holdAfterFirstMs: TTFT_HOLD_MS });
    firstChunkAt = undefined;
    await step('the first-token prompt', connection.prompt({ sessionId, prompt: [{ type: 'text', text: `Answer briefly. ${ttftMarker}` }] }));
    const ttftTimes = await ttftRequest;
    figures.ttftAddedMs = firstChunkAt === undefined ? Number.NaN : firstChunkAt - ttftTimes.firstByteAt;

    const pieces = answerPieces(chunks);
    const longMarker = `bench-long-${run}-${Date.now()}`;
    const longRequest = vendor.expect(longMarker, pieces);
    received.length = 0;
    firstChunkAt = undefined;
    const bytesBefore = stdoutBytes;
    const longSent = performance.now();
    await step('the long reply', connection.prompt({ sessionId, prompt: [{ type: 'text', text: `Write a long answer. ${longMarker}` }] }));
    figures.streamMs = performance.now() - longSent;
    figures.wireBytes = stdoutBytes - bytesBefore;
    figures.pssAfterReplyMiB = treePssBytes(child.pid!) / MiB;
    await longRequest;
    figures.chunks = received.length;
    figures.textMatches = received.join('') === pieces.join('');
    if (!figures.textMatches) figures.mismatch = firstDifference(received, pieces);
    return finish(figures);
  } finally {
    tree = processTree(child.pid!);
    memory.stop();
    child.stdin.end();
    for (const pid of tree.reverse()) signal(pid, 'SIGTERM');
    const killer = setTimeout(() => tree.forEach((pid) => signal(pid, 'SIGKILL')), 3000);
    await exited;
    clearTimeout(killer);
    rmSync(home, { recursive: true, force: true });
  }

  function finish(figures: RunFigures): RunFigures {
    const sampled = memory.stop();
    figures.peakRssMiB = sampled.peakRssBytes / MiB;
    figures.hwmSumMiB = sampled.hwmSumBytes / MiB;
    figures.processes = sampled.processes;
    figures.peakBreakdown = sampled.peakBreakdown;
    figures.vendorRequests = vendor.takeLog();
    return figures;
  }
}

function firstDifference(received: string[], sent: string[]): { at: number; received: string[] } {
  const text = received.join('');
  const expected = sent.join('');
  let at = 0;
  while (at < text.length && text[at] === expected[at]) at++;
  let offset = 0;
  const index = received.findIndex((piece) => (offset += piece.length) > at);
  return { at, received: received.slice(Math.max(0, index - 1), index + 2) };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
