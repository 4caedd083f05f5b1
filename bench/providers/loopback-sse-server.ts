import http from 'node:http';
import { listenOnLoopback } from '../support/listen-on-loopback.js';

/** A loopback HTTP server answering every request (any path) with one SSE body. */
export interface LoopbackSseServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Replace the body served from the next request on. */
  serve(chunks: readonly Uint8Array[]): void;
  close(): Promise<void>;
}

/**
 * Start the server both agentd and the official SDKs read from, so every contender gets
 * the same bytes in the same writes. The request body is read to its end first, as a
 * real server does before answering.
 */
export async function startLoopbackSseServer(): Promise<LoopbackSseServer> {
  let body: readonly Uint8Array[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of body) res.write(chunk);
      res.end();
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    serve(chunks) {
      body = chunks;
    },
  };
}
