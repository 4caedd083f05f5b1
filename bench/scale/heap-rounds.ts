import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchHome } from '../support/daemon-client.js';
import { heapSnapshotSize } from './heap-snapshot-size.js';
import { settledRssMiB, statusMiB } from '../support/proc-stats.js';
import { spawnSocketDaemon } from './socket-daemon.js';
import { sessionTag } from './tagged-chat-server.js';
import { spawnVendorProcess } from './vendor-process.js';

/**
 * Whether streaming leaves memory behind per session: SESSIONS sessions on one socket of
 * one daemon are prompted together ROUNDS times (CHUNKS pieces each); after each round,
 * the daemon's settled RSS, then a heap snapshot (SIGUSR2; V8 collects garbage first) for
 * the live heap, and RSS after it. Usage:
 *
 *   node dist/bench/scale/heap-rounds.js [sessions=100] [chunks=2000] [rounds=3]
 */
async function main(sessions: number, chunks: number, rounds: number): Promise<void> {
  const vendor = await spawnVendorProcess(chunks);
  const { home, cleanup } = benchHome({ model: 'local/bench', providers: { local: { type: 'openai-chat', baseUrl: `${vendor.url}/v1` } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const snapshots = mkdtempSync(join(tmpdir(), 'agentd-bench-heap-'));
  const daemon = spawnSocketDaemon(home, { nodeArgs: ['--heapsnapshot-signal=SIGUSR2'], cwd: snapshots });
  try {
    const pid = daemon.child.pid!;
    const client = await daemon.connect();
    await client.connection.sendRequest('initialize', { protocolVersion: 1 });
    const ids: string[] = [];
    for (let i = 0; i < sessions; i++) {
      ids.push(((await client.connection.sendRequest('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId: string }).sessionId);
    }
    console.log(JSON.stringify({ stage: 'idle', rssMiB: await settledRssMiB(pid, 2000) }));
    for (let round = 1; round <= rounds; round++) {
      const started = performance.now();
      const answers = (await Promise.all(
        ids.map((sessionId, i) => client.connection.sendRequest('session/prompt', { sessionId, prompt: [{ type: 'text', text: `${sessionTag(i)} round ${round}` }] })),
      )) as Array<{ stopReason: string }>;
      const seconds = (performance.now() - started) / 1000;
      const rssMiB = await settledRssMiB(pid, 2000);
      const peakMiB = statusMiB(pid, 'VmHWM');
      const heap = heapSnapshotSize(await snapshot(pid, snapshots));
      console.log(JSON.stringify({ stage: `round ${round}`, seconds, endTurns: answers.filter((a) => a.stopReason === 'end_turn').length, rssMiB, peakMiB, ...heap, rssAfterGcMiB: await settledRssMiB(pid, 1000) }));
    }
    client.close();
  } finally {
    await daemon.stop();
    await vendor.close();
    cleanup();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(snapshots, { recursive: true, force: true });
  }
}

/**
 * Asks the daemon for a heap snapshot and resolves with its path once the file is whole:
 * it appears empty while V8 collects and walks the heap, then grows; whole once it ends
 * with the JSON's closing brace and has stopped growing.
 */
async function snapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  let seen = -1;
  for (;;) {
    await sleep(500);
    const name = readdirSync(dir).find((file) => !before.has(file));
    if (!name) continue;
    const path = join(dir, name);
    const { size } = statSync(path);
    if (size > 0 && size === seen && lastByte(path, size) === '}') return path;
    seen = size;
  }
}

function lastByte(path: string, size: number): string {
  const fd = openSync(path, 'r');
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, size - 1);
    return byte.toString('latin1');
  } finally {
    closeSync(fd);
  }
}

main(Number(process.argv[2] ?? 100), Number(process.argv[3] ?? 2000), Number(process.argv[4] ?? 3)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
