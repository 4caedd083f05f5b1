import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { streamPieces } from '../relay/vendor-stream.js';
import { benchHome, median, percentile } from '../support/daemon-client.js';
import { openDashboard } from './open-dashboard.js';
import { goToHash, pageHoldsText, startFrameProbe, stopFrameProbe, textShownAt, type ProbeResult } from './page-probes.js';
import { startStreamVendor } from './stream-vendor-child.js';

export interface StreamFigures {
  chunks: number;
  paceMs: number;
  runs: number;
  /** Prompt sent (by the other client) to the first chunk's text on the page, median. */
  firstTextMedianMs: number;
  /** The vendor's last content chunk reaching its socket to its text on the page, median and worst. */
  lastChunkToShownMedianMs: number;
  lastChunkToShownMaxMs: number;
  /** The whole stream on the page: first text to last, median. */
  streamOnPageMedianMs: number;
  /** Over the stream on the page (first text to last), all runs pooled: */
  frames: number;
  frameIntervalMedianMs: number;
  frameIntervalP95Ms: number;
  frameIntervalMaxMs: number;
  /** Frames that came more than 50 ms after the one before (a stutter a user sees). */
  framesOver50Ms: number;
  longTasks: number;
  longTaskTotalMs: number;
  longTaskMaxMs: number;
  /** Whether every run's page held the whole answer, in order, at the end. */
  wholeTextShown: boolean;
}

/** Where a session's view lives in the page's hash router. */
const sessionRoute = (sessionId: string): string => `#/session/${encodeURIComponent(sessionId)}`;

interface StreamRun {
  firstTextMs: number;
  lastChunkToShownMs: number;
  onPageMs: number;
  intervals: number[];
  longTasks: ProbeResult['longTasks'];
  whole: boolean;
}

/**
 * The page while a session streams `chunks` chunks from a loopback vendor in a process of
 * its own: another client (on the daemon's socket) starts the session and prompts it, the
 * page shows it in its session view. In the page, every animation frame and every long
 * task (PerformanceObserver) is recorded from the prompt to the last chunk's text showing;
 * frame gaps and long tasks are counted between the first and the last text. Times between
 * processes are wall-clock (each side's timeOrigin plus its monotonic clock).
 */
export async function benchStreamResponsiveness(chunks = 2000, runs = 3, paceMs = 0): Promise<StreamFigures> {
  const vendor = await startStreamVendor(chunks, paceMs);
  const { home, cleanup } = benchHome({ model: 'bench/stream', providers: { bench: { type: 'openai-chat', baseUrl: `${vendor.url}/v1`, maxRetries: 0 } } });
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-bench-ws-'));
  const pieces = streamPieces(chunks);
  const first = pieces[0]!.trim();
  const last = pieces[chunks - 1]!.trim();
  const whole = pieces.join('').trim();
  const wall = (): number => performance.timeOrigin + performance.now();
  try {
    const dashboard = await openDashboard(home);
    try {
      const page = await dashboard.context.newPage();
      await page.goto(`${dashboard.origin}/#/sessions`);
      const results: StreamRun[] = [];
      for (let run = 0; run < runs; run++) {
        const { sessionId } = (await dashboard.client.connection.sendRequest('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId: string };
        await page.evaluate(goToHash, sessionRoute(sessionId));
        // The session view is up once it names the session's prompt box.
        await page.getByRole('textbox').first().waitFor({ timeout: 30_000 });
        await page.evaluate(startFrameProbe);
        const lastChunkAt = vendor.nextLastChunkAt();
        const sentAt = wall();
        const answered = dashboard.client.connection.sendRequest('session/prompt', { sessionId, prompt: [{ type: 'text', text: `stream ${chunks} chunks` }] });
        const firstAt = (await (await page.waitForFunction(textShownAt, first, { polling: 'raf', timeout: 120_000 })).jsonValue()) as number;
        const shownAt = (await (await page.waitForFunction(textShownAt, last, { polling: 'raf', timeout: 300_000 })).jsonValue()) as number;
        await answered;
        const probe = await page.evaluate(stopFrameProbe);
        const frames = probe.frames.filter((t) => t >= firstAt && t <= shownAt);
        results.push({
          firstTextMs: firstAt - sentAt,
          lastChunkToShownMs: shownAt - (await lastChunkAt),
          onPageMs: shownAt - firstAt,
          intervals: frames.slice(1).map((t, i) => t - frames[i]!),
          longTasks: probe.longTasks.filter((task) => task.start + task.duration >= firstAt && task.start <= shownAt),
          whole: await page.evaluate(pageHoldsText, whole),
        });
      }
      const intervals = results.flatMap((r) => r.intervals);
      const longTasks = results.flatMap((r) => r.longTasks);
      const round = (n: number): number => Math.round(n * 10) / 10;
      return {
        chunks,
        paceMs,
        runs,
        firstTextMedianMs: round(median(results.map((r) => r.firstTextMs))),
        lastChunkToShownMedianMs: round(median(results.map((r) => r.lastChunkToShownMs))),
        lastChunkToShownMaxMs: round(Math.max(...results.map((r) => r.lastChunkToShownMs))),
        streamOnPageMedianMs: round(median(results.map((r) => r.onPageMs))),
        frames: intervals.length + results.length,
        frameIntervalMedianMs: round(intervals.length ? median(intervals) : 0),
        frameIntervalP95Ms: round(intervals.length ? percentile(intervals, 95) : 0),
        frameIntervalMaxMs: round(intervals.length ? Math.max(...intervals) : 0),
        framesOver50Ms: intervals.filter((ms) => ms > 50).length,
        longTasks: longTasks.length,
        longTaskTotalMs: round(longTasks.reduce((sum, task) => sum + task.duration, 0)),
        longTaskMaxMs: round(longTasks.length ? Math.max(...longTasks.map((task) => task.duration)) : 0),
        wholeTextShown: results.every((r) => r.whole),
      };
    } finally {
      await dashboard.close();
    }
  } finally {
    await vendor.close();
    cleanup();
    rmSync(workspace, { recursive: true, force: true });
  }
}
