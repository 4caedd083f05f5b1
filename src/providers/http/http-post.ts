import type { IncomingMessage } from 'node:http';
import type { EncodedBody } from './body-pieces.js';
import { agentFor } from './keep-alive-agents.js';
import { clientFor } from './node-http-client.js';

/** A transport limit ran out; `code` names which, for networkError. */
export class TransportTimeoutError extends Error {
  constructor(
    readonly code: 'CONNECT_TIMEOUT' | 'HEADERS_TIMEOUT',
    message: string,
  ) {
    super(message);
  }
}

export interface HttpPostOptions {
  headers: Record<string, string>;
  /** The encoded body, its chunks written as they are; released once the socket has them all, or the request is gone. */
  body: EncodedBody;
  /** Aborting destroys the request and its response, in any state. */
  signal: AbortSignal;
  /** TCP (and TLS) connect. */
  connectMs: number;
  /** From the request sent to the response headers. */
  firstByteMs: number;
}

/**
 * POSTs `body` with Node's own http/https client and resolves with the response once its
 * headers arrive; the body is the response stream. Node's client is part of the runtime
 * (about 20 ms to load against undici's 75–400 ms), which keeps it off the path of a
 * session's first model request. Rejects with the socket's error, or a
 * TransportTimeoutError when the connect or first-byte limit runs out.
 */
export function httpPost(url: URL, options: HttpPostOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = clientFor(url);
    // Bytes, not text: the length header is read off them, and the socket writes them
    // without another walk over a long history's megabytes.
    const body = options.body;
    const request = client.request(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(body.length) },
      agent: agentFor(url),
      signal: options.signal,
    });
    let timer: NodeJS.Timeout | undefined;
    const fail = (code: TransportTimeoutError['code'], message: string): void => void request.destroy(new TransportTimeoutError(code, message));
    const awaitHeaders = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => fail('HEADERS_TIMEOUT', `no response headers within ${options.firstByteMs} ms`), options.firstByteMs);
    };
    request.once('socket', (socket) => {
      // A pooled socket is connected already; a new one has its handshake to do first.
      if (!socket.connecting) return awaitHeaders();
      timer = setTimeout(() => fail('CONNECT_TIMEOUT', `not connected within ${options.connectMs} ms`), options.connectMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', awaitHeaders);
    });
    request.once('response', (response) => {
      clearTimeout(timer);
      // The agent's socket timeout only closes an idle pooled socket, and the socket refreshes
      // it on every read: once per event of a streamed answer. The body's silences are the idle
      // watchdog's; the agent sets the timeout again when the socket goes back to the pool.
      response.socket.setTimeout(0);
      resolve(response);
    });
    // `on`, not `once`: a socket error after the response must never go unhandled.
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // Only once every byte is with the socket, or the request is gone (torn down midway).
    request.once('finish', body.release);
    request.once('close', body.release);
    // Corked: the chunks go out in one write with the headers, not one system call each.
    request.cork();
    for (const chunk of body.chunks) request.write(chunk);
    request.uncork();
    request.end();
  });
}
