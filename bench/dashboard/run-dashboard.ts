import { loadavg } from 'node:os';
import { benchFirstRender } from './first-render.js';
import { benchPageWeight } from './page-weight.js';
import { benchStreamResponsiveness } from './stream-responsiveness.js';

/**
 * The dashboard's figures as JSON lines (see README.md, "Dashboard"):
 * `run-dashboard.js [weight|first-render|stream] [--sessions N] [--chunks N] [--pace-ms N] [--runs N]`.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args[0] && !args[0].startsWith('--') ? args[0] : undefined;
  const option = (name: string, fallback: number): number => {
    const at = args.indexOf(`--${name}`);
    if (at < 0) return fallback;
    const value = Number(args[at + 1]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} takes a number, got ${JSON.stringify(args[at + 1])}`);
    return value;
  };
  const print = (bench: string, figures: object): void => console.log(JSON.stringify({ bench, ...figures, loadAverage: loadavg().map((l) => Math.round(l * 100) / 100) }));
  if (!only || only === 'weight') print('dashboard-weight', benchPageWeight());
  if (!only || only === 'first-render') print('dashboard-first-render', await benchFirstRender(option('sessions', 1000), option('runs', 7)));
  if (!only || only === 'stream') print('dashboard-stream', await benchStreamResponsiveness(option('chunks', 2000), option('runs', 3), option('pace-ms', 0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
