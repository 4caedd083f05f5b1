import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readJsonlLines } from './jsonl-lines.js';
import type { WriteMode } from './vendor-stream.js';

/** Starts vendor-process.ts as a child; resolves with its URL once it listens. */
export async function startVendorChild(chunks: number, mode: WriteMode): Promise<{ url: string; close(): Promise<void> }> {
  const script = fileURLToPath(new URL('./vendor-process.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(chunks), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`vendor process exited (${code})`)));
    readJsonlLines(child.stdout, (line) => {
      const { url } = JSON.parse(line) as { url?: string };
      if (url !== undefined) resolve(url);
    });
  });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
