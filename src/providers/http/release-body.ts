import type { IncomingMessage } from 'node:http';

/** How long, and how many more bytes, a body that has not ended yet may take to end by itself. */
const DRAIN_MS = 1_000;
const DRAIN_BYTES = 65_536;

/**
 * Lets go of a response body its reader stopped reading — normally because the vendor's
 * end marker (`[DONE]`, `message_stop`) was seen, with at most the chunked encoding's
 * terminator still to come. Reading that rest lets the keep-alive socket go back to the
 * pool, so the next model request skips a TCP (and TLS) handshake; destroying the body
 * would close it. A body that goes on past a few more bytes or does not end soon is
 * destroyed. Nothing waits on this: the stream's events have all been passed on.
 */
export function releaseBody(body: IncomingMessage): void {
  // A socket error while draining must not go unhandled; the body is dropped either way.
  body.on('error', () => undefined);
  if (!body.complete) {
    let bytes = 0;
    const timer = setTimeout(() => body.destroy(), DRAIN_MS);
    timer.unref();
    body.once('close', () => clearTimeout(timer));
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_BYTES) body.destroy();
    });
  }
  body.resume();
}
