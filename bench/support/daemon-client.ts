import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** A temporary AGENTD_HOME with a config.json. */
export function benchHome(config: unknown): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), 'agentd-bench-'));
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'config.json'), JSON.stringify(config));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** `agentd serve --stdio` as a child with a line reader over its stdout. */
export function spawnStdioDaemon(home: string): {
  child: ChildProcessWithoutNullStreams;
  onLine(listener: (line: string) => void): void;
  send(message: unknown): void;
} {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio'], {
    env: { ...process.env, AGENTD_HOME: home },
    stdio: 'pipe',
  });
  const listeners: Array<(line: string) => void> = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    pending += text;
    let i: number;
    while ((i = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      for (const l of listeners) l(line);
    }
  });
  return {
    child,
    onLine: (listener) => listeners.push(listener),
    send: (message) => child.stdin.write(JSON.stringify(message) + '\n'),
  };
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
