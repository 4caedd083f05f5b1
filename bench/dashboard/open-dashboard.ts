import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { spawnSocketDaemon, type SocketClient, type SocketDaemon } from '../scale/socket-daemon.js';

/** Debian's Chromium unless AGENTD_BENCH_CHROMIUM names another; playwright-core downloads nothing. */
export const CHROMIUM = process.env.AGENTD_BENCH_CHROMIUM ?? '/usr/bin/chromium';

/** A daemon serving the dashboard, a client on its socket, and headless Chromium logged in to the page. */
export interface BenchDashboard {
  daemon: SocketDaemon;
  /** Initialized with daemon events on: the "other client" that starts sessions. */
  client: SocketClient;
  browser: Browser;
  /** Holds the login cookie: every page opened in it is logged in. */
  context: BrowserContext;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * `agentd serve --socket … --http 127.0.0.1:0` on `home`, a socket client that asks for a
 * login address (`dashboard/login`), and a Chromium context that opened it (the cookie it
 * set serves every later page). The viewport is a laptop's.
 */
export async function openDashboard(home: string): Promise<BenchDashboard> {
  const daemon = spawnSocketDaemon(home, { serveArgs: ['--http', '127.0.0.1:0'] });
  let browser: Browser | undefined;
  try {
    const client = await daemon.connect();
    await client.connection.sendRequest('initialize', { protocolVersion: 1, clientInfo: { name: 'dashboard-bench', version: '1' }, _meta: { agentd: { events: true } } });
    const { url } = (await client.connection.sendRequest('dashboard/login', {})) as { url: string };
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const login = await context.newPage();
    await login.goto(url);
    await login.close();
    const opened = browser;
    return {
      daemon,
      client,
      browser: opened,
      context,
      origin: new URL(url).origin,
      async close() {
        await opened.close();
        client.close();
        await daemon.stop();
      },
    };
  } catch (error) {
    await browser?.close();
    await daemon.stop();
    throw new Error(`could not open the dashboard: ${(error as Error).message}\n${daemon.stderr()}`);
  }
}
