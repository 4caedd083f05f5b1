import type { Readable } from 'node:stream';

/** Lines of a child's stdout; `next(match)` resolves with the first line, from now on, that matches. */
export function lineReader(child: { stdout: Readable }): { next(match: (line: string) => boolean): Promise<string> } {
  let pending = '';
  let waiter: { match: (line: string) => boolean; resolve: (line: string) => void } | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    pending += text;
    for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      if (waiter?.match(line)) {
        const { resolve } = waiter;
        waiter = undefined;
        resolve(line);
      }
    }
  });
  return { next: (match) => new Promise((resolve) => (waiter = { match, resolve })) };
}
