import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server the benchmarks started: its origin, and a close that drops kept-alive sockets too. */
export interface LoopbackServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1 (benchmarks touch no other address). */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
