import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcPeer } from './rpc-peer.js';

/** The bundled CLI the `agentd` bin runs; `npm test` builds it (tsc, then scripts/bundle-cli.mjs) before vitest runs. */
export const CLI = fileURLToPath(new URL('../../dist/bin/agentd.cjs', import.meta.url));

/** A temporary AGENTD_HOME with an optional config.json, removed by `cleanup`. */
export function makeHome(config?: unknown): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), 'agentd-home-'));
  if (config !== undefined) {
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(join(home, 'config', 'config.json'), JSON.stringify(config, null, 2));
  }
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** The environment for a daemon child: no vendor keys or base URLs leak in from the host. */
export function daemonEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/_API_KEY$|_BASE_URL$|^AGENTD_|^XDG_/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, AGENTD_HOME: home, ...extra };
}

export interface DaemonChild {
  child: ChildProcessWithoutNullStreams;
  /** The stdio peer (only meaningful for `serve --stdio`). */
  peer: RpcPeer;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The `agentd` bin as installed: a launcher that starts `serve` from the start-up snapshot
 * (built for this Node by scripts/bundle-cli.mjs) and runs dist/bin/agentd.cjs otherwise.
 */
export const BIN = fileURLToPath(new URL('../../dist/bin/agentd', import.meta.url));

/** Spawns the `agentd` bin with ARGS and stdio pipes, with this Node first on PATH (the launcher runs `node`). */
export function spawnDaemon(args: string[], env: NodeJS.ProcessEnv, cwd?: string): DaemonChild {
  const path = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  const child = spawn(BIN, args, { env: { ...env, PATH: path }, cwd: cwd ?? process.cwd(), stdio: 'pipe' });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, peer: new RpcPeer(child.stdout, child.stdin), stderr: () => stderr, exited };
}

/** Connects a peer to a Unix socket or TCP port. */
export async function connectPeer(target: string | { host: string; port: number }): Promise<RpcPeer> {
  const socket = typeof target === 'string' ? connect(target) : connect(target.port, target.host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return new RpcPeer(socket, socket);
}

/**
 * Connects to a daemon's Unix socket once it accepts connections: the socket file appears
 * at bind, a moment before listen, so a connect in between is refused and is retried.
 */
export async function connectWhenListening(socketPath: string, timeoutMs = 10_000): Promise<RpcPeer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await connectPeer(socketPath);
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${socketPath} to accept connections: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Polls until the predicate holds (for "the daemon is listening now" waits). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
