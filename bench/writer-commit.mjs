// Commits messages one at a time through the session writer (SessionWriter.commit, as a turn
// does: stored, then announced) on a real SQLite file, and prints the time per committed
// message. It takes the build to measure as an argument, so one copy measures any checkout
// (before and after a change):
//   node bench/writer-commit.mjs <checkout with dist/> [messages]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const root = process.argv[2] ?? process.cwd();
const n = Number(process.argv[3] ?? 10_000);
const load = (file) => import(pathToFileURL(resolve(root, 'dist/src', file)).href);
const { openStore } = await load('store/open-store.js');
const { SessionWriter } = await load('session/session-writer.js');
const dir = mkdtempSync(join(tmpdir(), 'agentd-bench-writer-'));
const store = openStore(join(dir, 'agentd.db'));
const record = await store.createSession({ id: 's', cwd: dir });
// Every commit must be announced once: counted, and printed with the figures.
let events = 0;
const writer = new SessionWriter(record, store, () => void events++);
await writer.startTurn('t1');
const text = 'the a function returns value when store session message load replay client daemon token stream file path error test build with from into each '.repeat(8);
/** Wall-clock time of each commit, from the call to its promise settling (announcement included). */
const times = [];
const cpu0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < n; i++) {
  const s = performance.now();
  await writer.commit({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] }, { status: 'complete', costUsd: 0.001 });
  times.push(performance.now() - s);
}
const wall = performance.now() - t0; const cpu = process.cpuUsage(cpu0);
times.sort((a, b) => a - b);
console.log(JSON.stringify({ bench: 'writer-commit', root: resolve(root), messages: n, events, medianMs: +times[n >> 1].toFixed(4), p90Ms: +times[Math.floor(n * 0.9)].toFixed(4), meanMs: +(wall / n).toFixed(4), cpuMeanMs: +((cpu.user + cpu.system) / 1000 / n).toFixed(4) }));
await store.close(); rmSync(dir, { recursive: true, force: true });
