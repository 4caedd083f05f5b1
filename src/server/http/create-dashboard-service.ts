import type { DaemonShell } from '../daemon-shell.js';
import type { TcpLimits } from '../wire/transports/tcp-limits.js';
import type { DashboardHttpServer } from './dashboard-http-server.js';
import type { DashboardService } from './dashboard-service.js';
import { isLoopbackHost, parseHttpAddress, type HttpAddress } from './http-address.js';

export interface DashboardServiceOptions {
  /** `server.http` from the user's config, if set. */
  configured?: string;
  /** `agentd serve --http-any-host`: a host that is not loopback may be served. */
  anyHost: boolean;
  webRoot?: string;
  limits: TcpLimits;
  now?: () => number;
}

/** Not loopback, and `--http-any-host` not given. */
export class HttpHostRefusedError extends Error {}

/** The HTTP server's code (node:http, ws) loads only when the page is first served. */
export function createDashboardService(shell: DaemonShell, options: DashboardServiceOptions): DashboardService {
  let serving: Promise<DashboardHttpServer> | undefined;
  let server: DashboardHttpServer | undefined;
  const start = (address: HttpAddress): Promise<DashboardHttpServer> => {
    if (!isLoopbackHost(address.host) && !options.anyHost) {
      return Promise.reject(
        new HttpHostRefusedError(
          `${address.host} is not a loopback address: the page would be open to the network; pass --http-any-host to agentd serve to allow it, or serve on 127.0.0.1`,
        ),
      );
    }
    if (address.host === '0.0.0.0' || address.host === '::') {
      return Promise.reject(
        new HttpHostRefusedError(
          `give the address browsers will use to reach the page, not ${address.host}: it answers only to requests naming its own address (a guard against DNS rebinding)`,
        ),
      );
    }
    serving = (async () => {
      const [{ DashboardHttpServer }, { defaultWebRoot }] = await Promise.all([import('./dashboard-http-server.js'), import('./default-web-root.js')]);
      return DashboardHttpServer.listen(shell, address, {
        webRoot: options.webRoot ?? defaultWebRoot(),
        limits: options.limits,
        ...(options.now ? { now: options.now } : {}),
      });
    })();
    serving.then(
      (started) => {
        server = started;
        if (!isLoopbackHost(address.host)) {
          process.stderr.write(`agentd: warning: the dashboard is served on ${started.origin}, reachable from the network (--http-any-host)\n`);
        }
        shell.log(`serving the dashboard on ${started.origin} (agentd dashboard prints a login address)`);
      },
      () => (serving = undefined),
    );
    return serving;
  };
  return {
    origin: () => server?.origin ?? null,
    async serve(address) {
      if (serving) throw new Error(`the dashboard is served already${server ? ` on ${server.origin}` : ''}`);
      return (await start(address)).origin;
    },
    async login() {
      const started = await (serving ?? start(options.configured ? parseHttpAddress(options.configured, 'server.http') : { host: '127.0.0.1', port: 0 }));
      return started.mintLogin();
    },
    async close() {
      const started = await serving?.catch(() => undefined);
      await started?.close();
    },
  };
}
