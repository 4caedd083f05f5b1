import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readJsonlLines } from '../relay/jsonl-lines.js';

export interface StreamVendor {
  url: string;
  /** Resolves with the wall-clock time the next answer's last content chunk reached the socket. */
  nextLastChunkAt(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the relay benchmark's vendor process (one event per chunk, `paceMs` between them) as a child; resolves once it listens. */
export async function startStreamVendor(chunks: number, paceMs: number): Promise<StreamVendor> {
  const script = fileURLToPath(new URL('../relay/vendor-process.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(chunks), 'event', String(paceMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const waiting: Array<(at: number) => void> = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`stream vendor exited (${code})`)));
    readJsonlLines(child.stdout, (line) => {
      const message = JSON.parse(line) as { url?: string; lastChunkAt?: number };
      if (message.url) resolve(message.url);
      if (message.lastChunkAt !== undefined) waiting.shift()?.(message.lastChunkAt);
    });
  });
  return {
    url,
    nextLastChunkAt: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
