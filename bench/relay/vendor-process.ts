import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { vendorWrites, type WriteMode } from './vendor-stream.js';

/**
 * The loopback vendor, in a process of its own so that its writes neither share the
 * event loop nor the CPU account of the in-process SDK contender. argv: chunks, mode.
 * Prints `{"url": …}` once listening; every request gets the same streamed answer,
 * each write waiting for the previous one to reach the socket (no user-space batching).
 */
const chunks = Number(process.argv[2]);
const mode = process.argv[3] as WriteMode;
const writes = vendorWrites(chunks, mode);

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let next = 0;
    const writeNext = (): void => {
      if (next === writes.length) {
        res.end();
        return;
      }
      // paced: the next event a millisecond (a timer's least) after this one reached the socket.
      res.write(writes[next++]!, mode === 'paced' ? () => setTimeout(writeNext, 1) : writeNext);
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
