import type { Readable } from 'node:stream';

/**
 * Calls `onLine` with each LF-terminated line of a stream, as a string, and its size on
 * the wire in bytes (newline included). LF is the only delimiter: pi's RPC docs
 * (docs/rpc.md, "Framing") warn that readline also splits on U+2028/U+2029.
 */
export function readJsonlLines(stream: Readable, onLine: (line: string, bytes: number) => void): void {
  let pending: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      onLine(line.toString('utf8'), line.length + 1);
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
}
