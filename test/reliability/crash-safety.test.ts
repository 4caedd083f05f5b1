import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { readThenAnswer } from '../support/read-then-answer-model.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { seededRandom, seededRandomFrom } from '../support/seeded-random.js';

const KILLS = 20;
/** Markers the scripted model and the prompts put in each message: prompt-N, call-N, answer-N. */
const MARKER = /\b(?:prompt|call|answer)-\d+\b/g;

interface StoredMessage {
  role: string;
  status: string;
  markers: string[];
}

/** Every message row of the session, read through SQLite (read-only, so WAL recovery is left to the daemon). */
function readStoredMessages(databaseFile: string, sessionId: string): StoredMessage[] {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT role, status, content FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ role: string; status: string; content: string }>;
    return rows.map((row) => ({ role: row.role, status: row.status, markers: [...new Set(row.content.match(MARKER) ?? [])] }));
  } finally {
    db.close();
  }
}

function integrityCheck(databaseFile: string): unknown[] {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('integrity_check') as unknown[];
  } finally {
    db.close();
  }
}

/** Markers in order of first appearance. */
function markersIn(text: string): string[] {
  return [...new Set(text.match(MARKER) ?? [])];
}

describe('a daemon SIGKILLed at random points of tool-using turns, 20 times', () => {
  const cleanups: Array<() => Promise<void> | void> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('restarts with an intact database, every committed message back after session/load, and the session goes on', { timeout: 180_000 }, async () => {
    const random = seededRandom('crash safety');
    // Two daemons, each in its own home, killed 10 times each: the kills are as many and the
    // wall time about half, as most of a round is a fresh process loading its modules.
    const seeds = [random.int(0, 2 ** 31), random.int(0, 2 ** 31)];
    await Promise.all(seeds.map((seed, lane) => killRepeatedly(lane, seed, KILLS / 2, cleanups)));
  });
});

/**
 * One daemon's life: a session whose turns use the read tool, SIGKILLed `kills` times at
 * random moments and restarted; checked after each restart.
 */
async function killRepeatedly(lane: number, seed: number, kills: number, cleanups: Array<() => Promise<void> | void>): Promise<void> {
  const random = seededRandomFrom(seed);
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  writeFileSync(join(workspace, 'notes.txt'), 'buy milk\n');
  const replay: ReplayServer = await startReplayServer({ respond: readThenAnswer({ file: 'notes.txt', delayMs: 4 }) });
  const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, maxRetries: 0 } } });
  const env = daemonEnv(home.home);
  const { databaseFile } = resolveAgentdPaths(env);
  let daemon: DaemonChild | undefined;
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }), () => home.cleanup(), () => replay.close());
  cleanups.push(async () => {
    daemon?.child.kill('SIGKILL');
    await daemon?.exited;
  });

  let sessionId = '';
  /** What the last kill interrupted, for failure messages. */
  let lastKill = 'none';
  let prompt = 0;
  /** Markers of messages known committed: read from the database before a kill, or of turns the client saw end. */
  let committed: string[] = [];
  /** Tool calls whose result row was committed. */
  const resultsCommitted = new Set<string>();

  for (let round = 0; round <= kills; round += 1) {
    const what = `lane ${lane} round ${round} (lane seed ${seed})`;
    daemon = spawnDaemon(['serve'], env);
    const { peer } = daemon;
    await peer.call('initialize', { protocolVersion: 1 });
    if (round === 0) {
      sessionId = (await peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId;
    } else {
      await peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
      const replayed = peer.updates(sessionId);
      const shown = markersIn(JSON.stringify(replayed));
      // Everything committed is back, in the order it was committed.
      expect(
        shown.filter((m) => committed.includes(m)),
        `${what}: committed messages after session/load; last kill: ${lastKill}; replayed: ${JSON.stringify(replayed.map((u) => [u.sessionUpdate, u.toolCallId ?? u.content?.text, u.status, u._meta?.agentd?.interrupted]))}`,
      ).toEqual(committed);
      for (const call of resultsCommitted) {
        expect(
          replayed.some((u) => u.toolCallId === call && (u.status === 'completed' || u.status === 'failed')),
          `${what}: the committed result of ${call} is replayed`,
        ).toBe(true);
      }
    }
    // The session goes on: a whole tool-using turn completes after the crash. (It also loads
    // what a fresh daemon loads on its first turn, so the kill below lands in a warm turn.)
    prompt += 1;
    const answer = await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: `prompt-${prompt}` }] });
    expect(answer, `${what}: a turn after the restart`).toEqual({ stopReason: 'end_turn' });
    expect(peer.agentText(sessionId), `${what}: the answer streamed`).toContain(`answer-${prompt}`);
    committed.push(`prompt-${prompt}`, `call-${prompt}`, `answer-${prompt}`);
    resultsCommitted.add(`call-${prompt}`);
    if (round === kills) break;

    // A turn killed somewhere: in the model's tool call, the tool, the answer, or after it ended.
    prompt += 1;
    const killed = prompt;
    const finished = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `prompt-${killed}` }] }, 30_000);
    let ended = false;
    void finished.then(() => (ended = true), () => undefined);
    const delay = random.int(0, 150);
    await new Promise((resolve) => setTimeout(resolve, delay));
    // What the daemon has committed so far must survive the kill that follows.
    const stored = readStoredMessages(databaseFile, sessionId);
    const endedBeforeKill = ended;
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    daemon = undefined;
    lastKill = `${delay} ms into prompt-${killed}${endedBeforeKill ? ' (answered)' : ''}; stored before: ${JSON.stringify(stored.slice(-4))}`;

    // The database still held everything committed earlier, in order; from now on, all it held counts.
    const storedMarkers = [...new Set(stored.flatMap((m) => m.markers))];
    expect(storedMarkers.filter((m) => committed.includes(m)), `${what}: committed messages in the database before the kill`).toEqual(committed);
    committed = storedMarkers;
    for (const m of stored) if (m.role === 'tool') for (const call of m.markers) resultsCommitted.add(call);
    if (endedBeforeKill) {
      // Answered, so committed, even if after the read above: it is the last turn.
      expect((await finished).result, `${what}: the turn the client saw end`).toEqual({ stopReason: 'end_turn' });
      committed = [...new Set([...committed, `prompt-${killed}`, `call-${killed}`, `answer-${killed}`])];
      resultsCommitted.add(`call-${killed}`);
    }
    expect(integrityCheck(databaseFile), `${what}: integrity after a kill ${delay} ms into the turn`).toEqual([{ integrity_check: 'ok' }]);
  }

  // The model saw the whole committed history in the last request.
  await until(() => replay.requests.length > 0, 1_000, `lane ${lane}: a model request`);
  const lastRequest = JSON.stringify(replay.requests.at(-1)!.body);
  // (It asked for the last answer, so that one is not in it yet.)
  expect(markersIn(lastRequest).filter((m) => committed.includes(m)), `lane ${lane}: the last model request`).toEqual(committed.filter((m) => m !== `answer-${prompt}`));
}
