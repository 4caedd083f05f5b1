import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { benchHome, CLI } from './support/daemon-client.js';

/**
 * The daemon's resident memory while unauthenticated TCP clients send large frames:
 * `agentd serve --listen` on loopback, then CONNECTIONS sockets that never present the
 * token, each writing BYTES_PER_CONNECTION bytes of one endless NDJSON line. Reports the
 * daemon's RSS before, its peak while they send, and after they hang up (plus a settle
 * time), from /proc/PID/status (Linux). Usage:
 *
 *   node dist/bench/tcp-unauthenticated-memory.js [path/to/cli/main.js] [maxUnauthenticatedConnections]
 *
 * The CLI argument lets the same script measure an older build; the second sets
 * `server.maxUnauthenticatedConnections` (to see the frame cap alone, with every
 * connection admitted).
 */
const CONNECTIONS = 40;
const BYTES_PER_CONNECTION = 30 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x78);
const SETTLE_MS = 3000;

async function main(cli: string, maxUnauthenticated: number | undefined): Promise<void> {
  const { home, cleanup } = benchHome(maxUnauthenticated ? { server: { maxUnauthenticatedConnections: maxUnauthenticated } } : {});
  const port = await freePort();
  const daemon = spawn(process.execPath, [cli, 'serve', '--listen', `127.0.0.1:${port}`], {
    env: { ...process.env, AGENTD_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  daemon.stderr.on('data', (b: Buffer) => (log += b.toString()));
  try {
    await waitFor(() => log.includes('serving tcp') && existsSync(join(home, 'state', 'token')));
    await sleep(1000);
    const before = rssMiB(daemon.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(daemon.pid!))), 20);
    const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => flood(port)));
    await Promise.all(sockets.map((s) => s.done));
    const sentMiB = sockets.reduce((sum, s) => sum + s.sent(), 0) / 2 ** 20;
    for (const s of sockets) s.socket.destroy();
    await sleep(SETTLE_MS);
    clearInterval(sampler);
    const after = rssMiB(daemon.pid!);
    process.stdout.write(
      `${cli}${maxUnauthenticated ? ` (server.maxUnauthenticatedConnections ${maxUnauthenticated})` : ''}\n  ${CONNECTIONS} unauthenticated connections, up to ${BYTES_PER_CONNECTION / 2 ** 20} MiB each; ` +
        `${sentMiB.toFixed(1)} MiB written by the clients before each finished or was cut off\n` +
        `  RSS before ${before.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, ${SETTLE_MS / 1000} s after they hung up ${after.toFixed(0)} MiB\n`,
    );
  } finally {
    daemon.kill('SIGKILL');
    cleanup();
  }
}

/** One client writing one endless line until it has sent its share or the daemon hangs up. */
async function flood(port: number): Promise<{ socket: Socket; done: Promise<void>; sent(): number }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let sent = 0;
  const done = new Promise<void>((resolve) => {
    const closed = (): void => resolve();
    socket.once('close', closed);
    const pump = (): void => {
      while (sent < BYTES_PER_CONNECTION && !socket.destroyed) {
        sent += CHUNK.length;
        if (!socket.write(CHUNK)) return void socket.once('drain', pump);
      }
      resolve();
    };
    pump();
  });
  return { socket, done, sent: () => sent };
}

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(test: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !test(); i++) await sleep(25);
  if (!test()) throw new Error('the daemon did not start serving tcp');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

await main(process.argv[2] ?? CLI, process.argv[3] ? Number(process.argv[3]) : undefined);
