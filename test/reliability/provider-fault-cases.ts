import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderType } from '../../src/config/provider-config-schema.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon } from '../support/in-process-daemon.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../support/replay-server.js';

/**
 * Small, so a stall is noticed quickly; the replay server sends each body at once, so a
 * healthy stream never idles this long. Not smaller: the daemon shares this process's event
 * loop with the replay server, and a loaded machine must not turn a slow first byte into a stall.
 */
const STALL_MS = 800;
const FALLBACK_TEXT = 'Backup answer.';

/** One wire protocol as the fault cases need it: a healthy answer and its vendor's error bodies. */
export interface ProtocolUnderTest {
  type: ProviderType;
  /** The fixture under test/fixtures/<type>/ with a complete text answer. */
  textFixture: string;
  /** baseUrl for the replay server at `url`. */
  baseUrl(url: string): string;
  /** Vendor error fixtures by HTTP status, where the fixtures have one; others are synthesized by errorBody. */
  errorFixtures: Partial<Record<number, string>>;
  /** The vendor's error body for a status that has no fixture. */
  errorBody(status: number): string;
}

/** What the tests need of the healthy answer. */
interface Answer {
  response: ReplayResponse;
  text: string;
  bytes: Uint8Array;
  /** Byte offset just past the first SSE frame that carries answer text. */
  afterFirstDelta: number;
  /** A byte offset before any text: past the first SSE frame, or inside it when that one has text. */
  beforeFirstDelta: number;
}

type Outcome = 'success' | 'fallback' | 'error';

interface FaultCase {
  name: string;
  /** What the primary provider's server answers, attempt by attempt (then the fallback's, if reached). */
  responses(answer: Answer, p: ProtocolUnderTest): ReplayResponse[];
  outcome: Outcome;
}

function errorResponse(p: ProtocolUnderTest, status: number, retryAfter: string | undefined): ReplayResponse {
  const name = p.errorFixtures[status];
  const fixture = name ? loadFixture(p.type, name) : undefined;
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fixture?.expected.headers ?? { 'content-type': 'application/json' })) {
    if (!key.startsWith('retry-after')) headers[key] = value;
  }
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  return { status, headers, body: fixture?.bytes ?? p.errorBody(status) };
}

/** Not JSON, not UTF-8, not a known event: what a broken proxy might send with a 200. */
const garbage = Buffer.concat([Buffer.from('data: {"this is": not json\n\n'), Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x0a]), Buffer.from('event: ???\ndata: ]]]\n\n')]);

const fallbackAnswer: ReplayResponse = { body: chatCompletionSse(['Backup ', 'answer.']) };

const statusCases: FaultCase[] = [429, 529, 500, 503].flatMap((status) =>
  [undefined, '1'].map((retryAfter) => ({
    name: `HTTP ${status} ${retryAfter === undefined ? 'without' : 'with'} retry-after, then the answer: a retry succeeds`,
    responses: (answer: Answer, p: ProtocolUnderTest) => [errorResponse(p, status, retryAfter), answer.response],
    outcome: 'success' as const,
  })),
);

/**
 * The faults and what must come of each: a retry that succeeds, the fallback model's answer,
 * or a clear error answer (ProviderError, -32014) — never a hang, never a cut answer passed
 * off as complete. With `maxRetries: 1` the primary gets two attempts.
 */
const faultCases: FaultCase[] = [
  ...statusCases,
  {
    name: '503 on every attempt: the fallback model answers',
    responses: (answer, p) => [errorResponse(p, 503, undefined), errorResponse(p, 503, '0'), fallbackAnswer],
    outcome: 'fallback',
  },
  {
    name: '503 on every attempt and from the fallback too: a clear error',
    responses: (answer, p) => [errorResponse(p, 503, undefined), errorResponse(p, 503, undefined), { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"down too"}}' }],
    outcome: 'error',
  },
  {
    name: 'connection reset right after the headers: a retry succeeds',
    responses: (answer) => [{ ...answer.response, resetAfterBytes: 0 }, answer.response],
    outcome: 'success',
  },
  {
    name: 'connection reset after the first bytes, before any text: a retry succeeds',
    responses: (answer) => [{ ...answer.response, resetAfterBytes: answer.beforeFirstDelta }, answer.response],
    outcome: 'success',
  },
  {
    name: 'connection reset after the first text delta: a clear error, not a cut answer',
    responses: (answer) => [{ ...answer.response, resetAfterBytes: answer.afterFirstDelta }, answer.response],
    outcome: 'error',
  },
  {
    name: 'stall before the headers on every attempt: the fallback model answers',
    responses: (answer) => [{ hangBeforeHeaders: true }, { hangBeforeHeaders: true }, fallbackAnswer],
    outcome: 'fallback',
  },
  {
    name: 'stall after the headers: a retry succeeds',
    responses: (answer) => [{ ...answer.response, stallAfterBytes: 0 }, answer.response],
    outcome: 'success',
  },
  {
    name: 'stall after the first text delta: a clear error, not a cut answer',
    responses: (answer) => [{ ...answer.response, stallAfterBytes: answer.afterFirstDelta }, answer.response],
    outcome: 'error',
  },
  {
    name: 'a stream that ends cleanly after the first text delta: a clear error, not a cut answer',
    responses: (answer) => [{ ...answer.response, body: answer.bytes.subarray(0, answer.afterFirstDelta) }, answer.response],
    outcome: 'error',
  },
  {
    name: 'garbage instead of SSE, then the answer: a retry succeeds',
    responses: (answer) => [{ body: garbage }, answer.response],
    outcome: 'success',
  },
  {
    name: 'garbage instead of SSE on every attempt: the fallback model answers',
    responses: () => [{ body: garbage }, { body: garbage }, fallbackAnswer],
    outcome: 'fallback',
  },
];

function loadAnswer(p: ProtocolUnderTest): Answer {
  const fixture = loadFixture(p.type, p.textFixture);
  const text = (fixture.expected.message?.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const source = Buffer.from(fixture.bytes).toString('latin1');
  // Frame ends as byte offsets (latin1 keeps one character per byte); Gemini's fixture uses CRLF.
  const ends = [...source.matchAll(/\r\n\r\n|\n\n/g)].map((m) => m.index + m[0].length);
  const probe = text.slice(0, 3);
  const firstText = ends.findIndex((end, i) => source.slice(i === 0 ? 0 : ends[i - 1], end).includes(probe));
  if (text === '' || firstText < 0 || firstText === ends.length - 1) throw new Error(`${p.type}/${p.textFixture}: expected a text answer over several SSE frames`);
  return {
    response: { status: 200, ...(fixture.expected.headers ? { headers: fixture.expected.headers } : {}), body: fixture.bytes },
    text,
    bytes: fixture.bytes,
    afterFirstDelta: ends[firstText]!,
    // Gemini's first frame already carries text: then half of it, which yields no event.
    beforeFirstDelta: firstText > 0 ? ends[0]! : Math.floor(ends[0]! / 2),
  };
}

/** Runs every fault case against one wire protocol, each on a fresh daemon (the circuit breaker remembers failures). */
export function describeProviderFaults(p: ProtocolUnderTest): void {
  describe(`provider faults over ${p.type}`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it.each(faultCases)('$name', async (fault) => {
      const answer = loadAnswer(p);
      const replay: ReplayServer = await startReplayServer();
      cleanups.push(() => replay.close());
      const home = makeHome({
        model: 'primary/model-under-test',
        fallbackModel: 'backup/backup-model',
        providers: {
          primary: {
            type: p.type, baseUrl: p.baseUrl(replay.url), apiKey: 'test-key-0000', maxRetries: 1, maxRetryDelayMs: 20,
            timeouts: { firstByteMs: STALL_MS, idleMs: STALL_MS },
          },
          backup: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, apiKey: 'test-key-0000', maxRetries: 0 },
        },
      });
      cleanups.push(() => home.cleanup());
      const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
      cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
      const daemon = startInProcessDaemon(daemonEnv(home.home), workspace);
      cleanups.push(() => daemon.close());
      const { peer } = daemon;
      await peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
      const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });

      for (const response of fault.responses(answer, p)) replay.enqueue(response);
      const reply = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] }, 10_000);
      const events = peer.received.filter((m) => m.method === 'agentd/event').map((m) => m.params.event as { type: string });
      const shown = peer.agentText(sessionId);
      const what = `${fault.name}: ${JSON.stringify(reply).slice(0, 300)}; text ${JSON.stringify(shown)}; events ${JSON.stringify(events.map((e) => e.type))}`;

      if (fault.outcome === 'success') {
        expect(reply.result, what).toEqual({ stopReason: 'end_turn' });
        expect(shown, what).toBe(answer.text);
        expect(events.some((e) => e.type === 'retry'), what).toBe(true);
      } else if (fault.outcome === 'fallback') {
        expect(reply.result, what).toEqual({ stopReason: 'end_turn' });
        expect(shown, what).toBe(FALLBACK_TEXT);
        expect(events.some((e) => e.type === 'fallback'), what).toBe(true);
      } else {
        expect(reply.error?.code, what).toBe(-32014);
        expect(reply.error!.message, what).toMatch(/\S/);
        // The session is usable again once the provider is.
        replay.enqueue(answer.response);
        const again = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }, 10_000);
        expect(again.result, `${what}; then ${JSON.stringify(again)}`).toEqual({ stopReason: 'end_turn' });
      }
    });
  });
}
