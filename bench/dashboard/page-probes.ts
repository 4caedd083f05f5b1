/*
 * Functions that run in the dashboard's page (Playwright serialises each one and calls it
 * there), so each uses only its arguments and the page's globals. The benchmarks build
 * without the DOM's types; what the probes touch is declared below, locally.
 */
declare const document: { body: { textContent: string | null } | null };
declare const location: { hash: string };
declare const window: { agentdBenchProbe?: ProbeState };
declare const performance: { timeOrigin: number; now(): number; getEntriesByType(type: string): Array<Record<string, unknown>> };
declare function requestAnimationFrame(callback: (time: number) => void): number;
declare const PerformanceObserver: new (callback: (list: { getEntries(): Array<{ startTime: number; duration: number }> }) => void) => {
  observe(options: { type: string; buffered?: boolean }): void;
  disconnect(): void;
};

/** What the frame probe gathers, in wall-clock milliseconds (the page's timeOrigin plus its clock). */
export interface ProbeResult {
  /** Each animation frame's time. */
  frames: number[];
  /** Each long task (over 50 ms on the main thread): its start and duration. */
  longTasks: Array<{ start: number; duration: number }>;
}

interface ProbeState extends ProbeResult {
  running: boolean;
  observer: { disconnect(): void };
}

/** The wall-clock time when the page's text holds `marker`, or false (for waitForFunction's polling). */
export function textShownAt(marker: string): number | false {
  return document.body?.textContent?.includes(marker) ? performance.timeOrigin + performance.now() : false;
}

/** Starts recording every animation frame and every long task. */
export function startFrameProbe(): void {
  const state: ProbeState = { frames: [], longTasks: [], running: true, observer: { disconnect: () => undefined } };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push({ start: performance.timeOrigin + entry.startTime, duration: entry.duration });
  });
  observer.observe({ type: 'longtask' });
  state.observer = observer;
  const frame = (time: number): void => {
    if (!state.running) return;
    state.frames.push(performance.timeOrigin + time);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.agentdBenchProbe = state;
}

/** Stops the probe and hands over what it recorded. */
export function stopFrameProbe(): ProbeResult {
  const state = window.agentdBenchProbe!;
  state.running = false;
  state.observer.disconnect();
  return { frames: state.frames, longTasks: state.longTasks };
}

/** Whether the page's text holds the whole streamed answer (checked once, at the end). */
export function pageHoldsText(text: string): boolean {
  return document.body?.textContent?.includes(text) ?? false;
}

/** The page's time origin (its navigation start), when DOMContentLoaded ended after it, and how often `phrase` is in its text. */
export function navigationFacts(phrase: string): { timeOrigin: number; domContentLoadedMs: number; titles: number } {
  const navigation = performance.getEntriesByType('navigation')[0];
  return { timeOrigin: performance.timeOrigin, domContentLoadedMs: Number(navigation?.domContentLoadedEventEnd), titles: (document.body?.textContent ?? '').split(phrase).length - 1 };
}

/** Moves the page's hash router to `hash`. */
export function goToHash(hash: string): void {
  location.hash = hash;
}
