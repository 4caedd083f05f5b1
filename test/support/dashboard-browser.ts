import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startClientDaemon, type ClientDaemon } from './client-daemon.js';
import { connectWhenListening } from './daemon-process.js';
import type { RpcPeer } from './rpc-peer.js';

/** Where the dashboard tests' screenshots go: the test output folder, beside the other run artefacts. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../.tmp/dashboard-screenshots/', import.meta.url));

/** The dashboard's views as its navigation names them, and the address of each (hash routes). */
export const DASHBOARD_VIEWS = { Sessions: '#/sessions', Schedules: '#/schedules', Health: '#/health', Cost: '#/cost' } as const;
export type DashboardViewName = keyof typeof DASHBOARD_VIEWS;

/**
 * A real daemon serving the dashboard (`agentd serve --socket … --http 127.0.0.1:0`, the
 * `agentd` bin as installed, against the loopback model of startClientDaemon), a client on its
 * socket that asks for the login address (`dashboard/login`), and headless Debian Chromium
 * (playwright-core, nothing downloaded) with one page that has logged in. Every console
 * error and uncaught page error is collected for the test to assert there are none.
 */
export interface DashboardBed {
  daemon: ClientDaemon;
  /** A client on the daemon's socket, initialized with daemon events on: what "another client" does in the tests. */
  peer: RpcPeer;
  browser: Browser;
  page: Page;
  /** `http://127.0.0.1:PORT`, the page's origin. */
  origin: string;
  /** Console errors and uncaught exceptions of every page opened so far, as text. */
  consoleErrors: string[];
  /** A fresh single-use login address from `dashboard/login`. */
  loginUrl(): Promise<string>;
  /** Opens a new page (own cookie jar) that has logged in through a fresh login address; errors are collected too. */
  newLoggedInPage(): Promise<Page>;
  /** Clicks the navigation link of a view and waits until its heading shows. */
  openView(name: DashboardViewName, page?: Page): Promise<void>;
  /** Saves a full-page screenshot as SCREENSHOT_DIR/<name>.png and returns its path. */
  screenshot(name: string, page?: Page): Promise<string>;
  close(): Promise<void>;
}

export interface DashboardBedOptions {
  /** Extra config.json fields for the daemon (merged over startClientDaemon's). */
  config?: Record<string, unknown>;
  trustWorkspace?: boolean;
}

export async function startDashboardBed(options: DashboardBedOptions = {}): Promise<DashboardBed> {
  const daemon = await startClientDaemon(options.config ?? {}, { trustWorkspace: options.trustWorkspace ?? false, serveArgs: ['--http', '127.0.0.1:0'] });
  const peer = await connectWhenListening(daemon.socketPath);
  const consoleErrors: string[] = [];
  let browser: Browser | undefined;
  try {
    await peer.call('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'dashboard-test', version: '1.0.0' },
      _meta: { agentd: { events: true } },
    });
    const loginUrl = async (): Promise<string> => (await peer.call('dashboard/login', {})).url;
    const first = await loginUrl();
    const origin = new URL(first).origin;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      // Chromium refuses to run as root with its sandbox on; the tests' containers run as root.
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    const launched = browser;
    const watch = (page: Page): Page => {
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`console: ${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.stack ?? error.message}`));
      return page;
    };
    const logIn = async (url: string): Promise<Page> => {
      const context = await launched.newContext({ viewport: { width: 1280, height: 800 } });
      const page = watch(await context.newPage());
      // Under the test's own timeout, so a wait that fails names what it waited for.
      page.setDefaultTimeout(10_000);
      await page.goto(url);
      // The login address redirects to the page, which connects and shows its navigation.
      await page.getByRole('navigation').waitFor();
      return page;
    };
    const page = await logIn(first);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    return {
      daemon,
      peer,
      browser,
      page,
      origin,
      consoleErrors,
      loginUrl,
      newLoggedInPage: async () => logIn(await loginUrl()),
      async openView(name, on = page) {
        await on.getByRole('navigation').getByRole('link', { name, exact: true }).click();
        await on.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      },
      async screenshot(name, on = page) {
        const path = join(SCREENSHOT_DIR, `${name}.png`);
        await on.screenshot({ path, fullPage: true });
        return path;
      },
      async close() {
        await launched.close();
        peer.close();
        await daemon.close();
      },
    };
  } catch (error) {
    await browser?.close();
    peer.close();
    await daemon.close();
    throw error;
  }
}
