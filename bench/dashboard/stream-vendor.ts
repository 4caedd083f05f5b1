import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { vendorWrites } from '../relay/vendor-stream.js';

/**
 * The loopback vendor of the dashboard's streaming benchmark, in a process of its own (its
 * writes share neither the benchmark's event loop nor the browser's). argv: chunks, pace in
 * ms between chunks (0: each write as soon as the previous reached the socket). Prints
 * `{"url": …}` once listening, then for each answer `{"lastChunkAt": …}`: the wall-clock time
 * (ms since the epoch, sub-millisecond) its last content chunk reached the socket.
 */
const chunks = Number(process.argv[2]);
const paceMs = Number(process.argv[3] ?? 0);
const writes = vendorWrites(chunks, 'event');
const now = (): number => performance.timeOrigin + performance.now();

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
      if (paceMs > 0 && next > 0 && next < chunks) setTimeout(write, paceMs);
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
