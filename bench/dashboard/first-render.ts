import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { openStore } from '../../src/store/open-store.js';
import { benchHome, median } from '../support/daemon-client.js';
import { openDashboard } from './open-dashboard.js';
import { navigationFacts, textShownAt } from './page-probes.js';
import { seededTitle, seedSessions } from './seed-sessions.js';

export interface FirstRenderFigures {
  sessions: number;
  runs: number;
  /** Navigation start to the newest session's title in the page, the first load (nothing cached). */
  firstLoadMs: number;
  /** The same, median and range of the later loads (the hashed assets cached by the browser). */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Navigation start to DOMContentLoaded, median of the later loads. */
  domContentLoadedMedianMs: number;
  /** Seeded titles in the page when the newest showed (the first page of the list). */
  titlesShown: number;
}

/** Where the sessions view lives in the page's hash router. */
const SESSIONS_ROUTE = '#/sessions';

/**
 * Time to first render of the sessions view over a store of `sessions` sessions, seeded
 * through the real store (see seed-sessions.ts) in five projects: each run opens a new tab
 * on the page and stops the clock, on the page's own clock, at the first animation frame
 * whose document holds the newest session's title. The daemon is spawned once and warmed
 * by the first load.
 */
export async function benchFirstRender(sessions = 1000, runs = 7): Promise<FirstRenderFigures> {
  const { home, cleanup } = benchHome({ model: 'bench/small', providers: { bench: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' } } });
  const projects = mkdtempSync(join(tmpdir(), 'agentd-bench-projects-'));
  try {
    const folders = ['api', 'web', 'infra', 'docs', 'mobile'].map((name) => join(projects, name));
    for (const folder of folders) mkdirSync(folder);
    const store = openStore(resolveAgentdPaths({ AGENTD_HOME: home }).databaseFile);
    await seedSessions(store, folders, sessions);
    await store.close();
    const dashboard = await openDashboard(home);
    try {
      const newest = seededTitle(sessions - 1);
      const loads: Array<{ ms: number; domContentLoadedMs: number; titles: number }> = [];
      for (let run = 0; run <= runs; run++) {
        const page = await dashboard.context.newPage();
        await page.goto(`${dashboard.origin}/${SESSIONS_ROUTE}`, { waitUntil: 'commit' });
        const shownAt = (await (await page.waitForFunction(textShownAt, newest, { polling: 'raf', timeout: 60_000 })).jsonValue()) as number;
        const { timeOrigin, domContentLoadedMs, titles } = await page.evaluate(navigationFacts, 'Bench session ');
        loads.push({ ms: shownAt - timeOrigin, domContentLoadedMs, titles });
        await page.close();
      }
      const later = loads.slice(1);
      const round = (n: number): number => Math.round(n * 10) / 10;
      return {
        sessions,
        runs,
        firstLoadMs: round(loads[0]!.ms),
        medianMs: round(median(later.map((l) => l.ms))),
        minMs: round(Math.min(...later.map((l) => l.ms))),
        maxMs: round(Math.max(...later.map((l) => l.ms))),
        domContentLoadedMedianMs: round(median(later.map((l) => l.domContentLoadedMs))),
        titlesShown: loads[loads.length - 1]!.titles,
      };
    } finally {
      await dashboard.close();
    }
  } finally {
    cleanup();
    rmSync(projects, { recursive: true, force: true });
  }
}
