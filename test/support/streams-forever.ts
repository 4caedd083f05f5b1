import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A model server that answers every request with a head and then one frame, repeated until the client goes away. */
export interface EndlessServer {
  url: string;
  /** Body bytes written so far. */
  readonly sent: number;
  /** Resolves when the client has closed the connection (the stream was let go). */
  clientGone(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A hostile or broken OpenAI-compatible (or any SSE) server: `head` once, then `frame`
 * forever, as fast as the client reads (writes wait for `drain`, so memory stays flat on
 * this side and only the client's reading decides how much is sent).
 */
export async function startStreamsForever(head: string, frame: string): Promise<EndlessServer> {
  let sent = 0;
  let gone: () => void = () => undefined;
  const goneOnce = new Promise<void>((resolve) => (gone = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let open = true;
    res.on('close', () => {
      open = false;
      gone();
    });
    const pump = (): void => {
      while (open) {
        sent += Buffer.byteLength(frame);
        if (!res.write(frame)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    sent += Buffer.byteLength(head);
    res.write(head);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get sent() {
      return sent;
    },
    clientGone: () => goneOnce,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
