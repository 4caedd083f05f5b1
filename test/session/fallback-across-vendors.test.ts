import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { startDaemon, type StartedDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { startVendorBed, VENDOR_NAMES, VENDORS } from '../support/vendor-stand-ins.js';
import type { AssistantMessage, ToolMessage } from '../../src/providers/message.js';

const PRIMARY = 'anthropic/claude-sonnet-4-5-20250929';
const FALLBACK = 'gemini/gemini-2.5-flash';
/** The Gemini fixture's thought signature: bound to Gemini, it must never reach Anthropic. */
const GEMINI_SIGNATURE = 'CiQB0e2Kb7SMJvC4ACw9DgPZAEP3xGv0lKkz9wYdLzLTE2dN3YUKZgHR7YpvNk';

function serve(replay: ReplayServer, protocol: string, scenario: string): void {
  const fixture = loadFixture(protocol, scenario);
  replay.enqueue({ status: fixture.expected.status ?? 200, ...(fixture.expected.headers ? { headers: fixture.expected.headers } : {}), body: fixture.bytes });
}

describe('a fallback from another vendor answers', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('priced, limited, stored and tagged as the model that answered; the primary later gets its reasoning as text only', async () => {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({
      model: PRIMARY,
      fallbackModel: FALLBACK,
      providers: {
        anthropic: {
          type: 'anthropic-messages', baseUrl: replay.url, apiKey: 'sk-ant-test-key-0000', maxRetries: 0,
          models: { 'claude-sonnet-4-5-20250929': { contextWindow: 200_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15 } },
        },
        gemini: {
          type: 'gemini', baseUrl: replay.url, apiKey: 'AIzaSyReplayTestKey000000000000000000',
          models: { 'gemini-2.5-flash': { contextWindow: 1_048_576, maxOutputTokens: 65_536, inputPrice: 0.3, outputPrice: 2.5 } },
        },
      },
    });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const options = { cwd: workspace, env: daemonEnv(home.home), version: 'test', write: () => {} };

    let daemon: StartedDaemon | undefined = await startDaemon(options);
    cleanups.push(() => daemon?.shutdown());
    const session = await daemon.daemon.sessions.create({ cwd: workspace });
    const events: LoopEvent[] = [];
    session.subscribe((event) => void events.push(event as LoopEvent));
    serve(replay, 'anthropic-messages', 'http-529-overloaded-error');
    serve(replay, 'gemini', 'thought-parts');
    expect(await session.submit([{ type: 'text', text: 'What is 27 × 453?' }]).outcome).toEqual({ stopReason: 'end_turn' });

    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: PRIMARY, to: FALLBACK });
    const usage = events.find((e) => e.type === 'usage');
    // Gemini's rates and window, not Anthropic's: 14 input and 104 output tokens.
    expect(usage).toMatchObject({ model: FALLBACK, contextWindow: 1_048_576 });
    expect((usage as { costUsd: number }).costUsd).toBeCloseTo((14 * 0.3 + 104 * 2.5) / 1e6, 12);
    // Each request asked for its own model's output limit.
    const [toPrimary, toFallback] = replay.requests.map((r) => r.body as Record<string, unknown>);
    expect(toPrimary).toMatchObject({ max_tokens: 64_000 });
    expect(toFallback).toMatchObject({ generationConfig: { maxOutputTokens: 65_536 } });

    const stored = (await daemon.daemon.sessions.messages(session.id)).find((m) => m.role === 'assistant')!;
    expect(stored.model).toBe(FALLBACK);
    expect(stored.costUsd).toBeCloseTo((14 * 0.3 + 104 * 2.5) / 1e6, 12);
    expect(stored.content).toContainEqual(expect.objectContaining({ type: 'thinking', providerProtocol: 'gemini' }));

    // After a restart the primary is back: it gets the fallback's reasoning as plain text, never Gemini's signature.
    const id = session.id;
    await daemon.shutdown();
    daemon = undefined;
    const fresh = await startDaemon(options);
    cleanups.push(() => fresh.shutdown());
    serve(replay, 'anthropic-messages', 'text-only');
    expect(await (await fresh.daemon.sessions.open(id)).submit([{ type: 'text', text: 'And 27 × 454?' }]).outcome).toEqual({ stopReason: 'end_turn' });
    const again = JSON.stringify(replay.requests[2]!.body);
    expect(again).not.toContain(GEMINI_SIGNATURE);
    expect(again).toContain('<thinking>');
    expect(again).toContain('27 × 453 = 12,231.');
    expect((await fresh.daemon.sessions.messages(id)).filter((m) => m.role === 'assistant').map((m) => m.model)).toEqual([FALLBACK, PRIMARY]);
  });
});

/** The text a JSON request body holds for `text`, escaped as JSON escapes it. */
const inJson = (text: string): string => JSON.stringify(text).slice(1, -1);

describe('every vendor falls back to the next and takes the session back', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  // A ring: each vendor, unavailable, hands its turn to the next one, then answers the next turn with that answer in its history.
  const pairs = VENDOR_NAMES.map((name, i) => [name, VENDOR_NAMES[(i + 1) % VENDOR_NAMES.length]!] as const);
  it.each(pairs)('%s → %s → back', async (primaryName, fallbackName) => {
    const primary = VENDORS[primaryName];
    const fallback = VENDORS[fallbackName];
    const bed = await startVendorBed();
    cleanups.push(() => bed.close());
    const home = makeHome({ model: primary.ref, fallbackModel: fallback.ref, providers: bed.providers });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const daemon = await startDaemon({ cwd: workspace, env: await bed.env(home.home), version: 'test', write: () => {} });
    cleanups.push(() => daemon.shutdown());

    const session = await daemon.daemon.sessions.create({ cwd: workspace });
    const events: LoopEvent[] = [];
    session.subscribe((event) => void events.push(event as LoopEvent));
    primary.unavailable(bed.replay);
    fallback.answer(bed.replay);
    expect(await session.submit([{ type: 'text', text: 'First question' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: primary.ref, to: fallback.ref });
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ model: fallback.ref });
    const answered = (await daemon.daemon.sessions.messages(session.id)).find((m) => m.role === 'assistant') as AssistantMessage;
    expect(answered.model).toBe(fallback.ref);
    const texts = answered.content.flatMap((p) => (p.type === 'text' ? [p.text] : []));
    expect(texts.join('')).not.toBe('');
    const thinking = answered.content.flatMap((p) => (p.type === 'thinking' ? [p] : []));
    expect(thinking.length > 0).toBe(fallback.reasons);
    for (const part of thinking) expect(part.providerProtocol).toBe(fallback.protocol);

    primary.answer(bed.replay);
    expect(await session.submit([{ type: 'text', text: 'Second question' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(bed.replay.requests).toHaveLength(3);
    const back = JSON.stringify(bed.replay.requests[2]!.body);
    // The fallback's words reach the primary; its reasoning only as text, never its signature or encrypted form.
    for (const text of texts) expect(back).toContain(inJson(text));
    for (const part of thinking) {
      if (part.text.trim() !== '') expect(back).toContain(inJson(`<thinking>\n${part.text}\n</thinking>`));
      if (part.signature !== undefined) expect(back).not.toContain(part.signature);
      if (part.redacted !== undefined) expect(back).not.toContain(part.redacted);
      if (part.providerData?.['itemId'] !== undefined) expect(back).not.toContain(String(part.providerData['itemId']));
    }
    expect((await daemon.daemon.sessions.messages(session.id)).filter((m) => m.role === 'assistant').map((m) => m.model)).toEqual([fallback.ref, primary.ref]);
  });

  // Mid-turn: the fallback calls tools, and the primary, back for the next request of the same turn, gets those calls and their results on its own wire.
  it.each(pairs)('%s → %s calls tools → %s answers with them', async (primaryName, fallbackName) => {
    const primary = VENDORS[primaryName];
    const fallback = VENDORS[fallbackName];
    const bed = await startVendorBed();
    cleanups.push(() => bed.close());
    const home = makeHome({ model: primary.ref, fallbackModel: fallback.ref, providers: bed.providers });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    for (const [file, text] of [['notes.txt', 'the build is green'], ['config.toml', 'port = 8080'], ['README.md', 'matrix readme']]) writeFileSync(join(workspace, file!), `${text}\n`);
    const daemon = await startDaemon({ cwd: workspace, env: await bed.env(home.home), version: 'test', write: () => {} });
    cleanups.push(() => daemon.shutdown());

    const session = await daemon.daemon.sessions.create({ cwd: workspace });
    primary.unavailable(bed.replay);
    fallback.toolCall(bed.replay);
    primary.answer(bed.replay);
    expect(await session.submit([{ type: 'text', text: 'Look it up' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(bed.replay.requests).toHaveLength(3);
    const stored = await daemon.daemon.sessions.messages(session.id);
    expect(stored.filter((m) => m.role === 'assistant').map((m) => m.model)).toEqual([fallback.ref, primary.ref]);
    const calls = (stored.find((m) => m.role === 'assistant') as AssistantMessage).content.flatMap((p) => (p.type === 'tool_call' ? [p] : []));
    const results = (stored.find((m) => m.role === 'tool') as ToolMessage).content;
    expect(calls.length).toBeGreaterThan(0);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));

    const back = JSON.stringify(bed.replay.requests[2]!.body);
    for (const call of calls) {
      expect(back).toContain(inJson(call.name));
      const signature = call.providerData?.['thoughtSignature'] ?? call.providerData?.['itemId'];
      if (signature !== undefined) expect(back).not.toContain(String(signature));
    }
    for (const result of results) for (const part of result.content) if (part.type === 'text') expect(back).toContain(inJson(part.text));
  });
});
