import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { endChild } from '../support/end-child.js';

const MAIN = fileURLToPath(new URL('./vendor-process-main.js', import.meta.url));

/** Starts the tagged chat-completions vendor in a child process and resolves once it listens. */
export async function spawnVendorProcess(chunks: number): Promise<{ url: string; pid: number; untagged(): number; close(): Promise<void> }> {
  const child = spawn(process.execPath, [MAIN, String(chunks)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let untagged = 0;
  let pending = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the vendor process exited (${code}) before listening`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      pending += text;
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (line === 'untagged') untagged++;
        else if (line.startsWith('http://')) resolve(line);
      }
    });
  });
  return {
    url,
    pid: child.pid!,
    untagged: () => untagged,
    close: () => endChild(child),
  };
}
