import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, NullLogger, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { cancelRequestStrategy } from '../../protocol/wire/cancel-request-strategy.js';
import { NdjsonMessageReader } from '../../protocol/wire/ndjson-message-reader.js';
import { NdjsonMessageWriter } from '../../protocol/wire/ndjson-message-writer.js';

/** The daemon the benchmarks spawn; AGENTD_BENCH_CLI points at another build (to compare before and after a change with the same client). */
export const CLI = process.env.AGENTD_BENCH_CLI ?? fileURLToPath(new URL('../../bin/main.js', import.meta.url));

/**
 * The `agentd` bin as installed (a launcher: `serve` from the startup snapshot, `acp` to the
 * bridge), which is what an editor runs; AGENTD_BENCH_BIN points at another build's.
 */
export const BIN = process.env.AGENTD_BENCH_BIN ?? fileURLToPath(new URL('../../bin/agentd', import.meta.url));

/** Extra Node options for the spawned daemon (`--cpu-prof` is refused in NODE_OPTIONS), space-separated. */
export const DAEMON_NODE_ARGS = (process.env.AGENTD_BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

/** A temporary AGENTD_HOME with a config.json. */
export function benchHome(config: unknown): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), 'agentd-bench-'));
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'config.json'), JSON.stringify(config));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * `agentd serve --stdio` as a child, driven through a vscode-jsonrpc connection with the
 * protocol's NDJSON reader and writer (what the TypeScript client uses, without its
 * validation, so that the figures are the daemon's). `onLine` sees each line as written,
 * for measuring bytes on the wire.
 */
export function spawnStdioDaemon(home: string): {
  child: ChildProcessWithoutNullStreams;
  connection: MessageConnection;
  onLine(listener: (line: string) => void): void;
} {
  const child = spawn(process.execPath, [...DAEMON_NODE_ARGS, CLI, 'serve', '--stdio'], {
    env: { ...process.env, AGENTD_HOME: home },
    stdio: 'pipe',
  });
  const listeners: Array<(line: string) => void> = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    if (listeners.length === 0) return;
    pending += text;
    for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      for (const listener of listeners) listener(line);
    }
  });
  const connection = createMessageConnection(new NdjsonMessageReader(child.stdout), new NdjsonMessageWriter(child.stdin), NullLogger, {
    cancellationStrategy: cancelRequestStrategy,
  });
  connection.onError(() => undefined);
  connection.listen();
  return { child, connection, onLine: (listener) => listeners.push(listener) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
