import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { vendorWrites, type WriteMode } from './vendor-stream.js';

/**
 * The loopback vendor, in a process of its own so that its writes neither share the
 * event loop nor the CPU account of the in-process SDK contender (or the browser's, for the
 * dashboard's benchmark). argv: chunks, mode, and optionally a pause in ms between content
 * chunks. Prints `{"url": …}` once listening; every request gets the same streamed answer,
 * each write waiting for the previous one to reach the socket (no user-space batching), and
 * for each answer `{"lastChunkAt": …}`: the wall-clock time (ms since the epoch,
 * sub-millisecond) its last content chunk reached the socket.
 */
const chunks = Number(process.argv[2]);
const mode = process.argv[3] as WriteMode;
const paceMs = Number(process.argv[4] ?? 0);
const writes = vendorWrites(chunks, mode);
const now = (): number => performance.timeOrigin + performance.now();

/** How long write `index` waits, in ms: paced mode before every write but the first (a timer's least, 1 ms); a pause only between content chunks. */
function pauseBefore(index: number): number {
  if (mode === 'paced') return index > 0 ? 1 : 0;
  return paceMs > 0 && index > 0 && index < chunks ? paceMs : 0;
}

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let next = 0;
    const writeNext = (): void => {
      if (next === chunks) process.stdout.write(`${JSON.stringify({ lastChunkAt: now() })}\n`);
      if (next === writes.length) {
        res.end();
        return;
      }
      const write = (): boolean => res.write(writes[next++]!, writeNext);
      const pause = pauseBefore(next);
      if (pause > 0) setTimeout(write, pause);
      else write();
    };
    writeNext();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
