import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A peer that accepts a request and never answers: for first-byte timeouts and early aborts. */
export interface HangingServer {
  url: string;
  /** Requests that arrived (and are hanging). */
  readonly received: number;
  close(): Promise<void>;
}

export async function startHangingServer(): Promise<HangingServer> {
  let received = 0;
  const server = http.createServer((req) => {
    received += 1;
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
