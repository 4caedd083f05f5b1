import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { startDaemon, type StartedDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const ANTHROPIC = 'anthropic/claude-sonnet-4-5-20250929';
const BEDROCK_ID = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const BEDROCK = `bedrock/${BEDROCK_ID}`;
/** The signatures of the fixtures' reasoning: each is bound to its own vendor. */
const BEDROCK_SIGNATURE = 'EqQBCkgIBxABGAIiQHdvcmtzLWF0LWFsbC1zaWduYXR1cmUtZm9yLWEtdGVzdA==';
const ANTHROPIC_SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds6I4dSXiEVOc0jQPQKXaGHa7pHpX2WQqPBXW4f3Sxd2S9vJDVMzhgk3PC2eDMBfOU6Ri3Ai7UXcw0WIy1/qhGUvfSh4ZOQUO7hmfoCyzPsh+5SoQxf7qkdpbeLajeVc=';

function serve(replay: ReplayServer, protocol: string, scenario: string): void {
  const fixture = loadFixture(protocol, scenario);
  replay.enqueue({ status: fixture.expected.status ?? 200, ...(fixture.expected.headers ? { headers: fixture.expected.headers } : {}), body: fixture.bytes });
}

/** Bedrock's answer when the service is busy (ConverseStream "Errors": ServiceUnavailableException, 503). */
function serveBedrockUnavailable(replay: ReplayServer): void {
  replay.enqueue({
    status: 503,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ServiceUnavailableException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
    body: '{"message":"Bedrock is unable to process your request."}',
  });
}

describe('a session switching between Bedrock and Anthropic through fallbacks', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(primary: string, fallback: string) {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({
      model: primary,
      fallbackModel: fallback,
      providers: {
        anthropic: {
          type: 'anthropic-messages', baseUrl: replay.url, apiKey: 'sk-ant-test-key-0000', maxRetries: 0,
          models: { 'claude-sonnet-4-5-20250929': { contextWindow: 200_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15 } },
        },
        bedrock: {
          type: 'bedrock', baseUrl: replay.url, region: 'us-east-1', maxRetries: 0,
          models: { [BEDROCK_ID]: { contextWindow: 200_000, maxOutputTokens: 32_000, inputPrice: 3.3, outputPrice: 16.5 } },
        },
      },
    });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const env = daemonEnv(home.home, { HOME: home.home, AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' });
    for (const name of ['AWS_PROFILE', 'AWS_BEARER_TOKEN_BEDROCK', 'AWS_SESSION_TOKEN', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE']) delete env[name];
    const options = { cwd: workspace, env, version: 'test', write: () => {} };
    const state: { daemon: StartedDaemon | undefined } = { daemon: await startDaemon(options) };
    cleanups.push(() => state.daemon?.shutdown());
    return { replay, workspace, options, state };
  }

  it('to Bedrock: it answers priced as itself with its reasoning kept; Anthropic later gets that reasoning as text only', async () => {
    const { replay, workspace, options, state } = await start(ANTHROPIC, BEDROCK);
    const session = await state.daemon!.daemon.sessions.create({ cwd: workspace });
    const events: LoopEvent[] = [];
    session.subscribe((event) => void events.push(event as LoopEvent));
    serve(replay, 'anthropic-messages', 'http-529-overloaded-error');
    serve(replay, 'bedrock', 'text-with-reasoning');
    expect(await session.submit([{ type: 'text', text: 'Salut !' }]).outcome).toEqual({ stopReason: 'end_turn' });

    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: ANTHROPIC, to: BEDROCK });
    const usage = events.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ model: BEDROCK });
    expect((usage as { costUsd: number }).costUsd).toBeCloseTo((24 * 3.3 + 41 * 16.5) / 1e6, 12);
    expect(replay.requests[1]!.body).toMatchObject({ inferenceConfig: { maxTokens: 32_000 } });
    const stored = (await state.daemon!.daemon.sessions.messages(session.id)).find((m) => m.role === 'assistant')!;
    expect(stored.model).toBe(BEDROCK);
    expect(stored.content).toContainEqual({ type: 'thinking', text: 'The user greets me in French. A short answer will do.', signature: BEDROCK_SIGNATURE, providerProtocol: 'bedrock' });

    const id = session.id;
    await state.daemon!.shutdown();
    state.daemon = await startDaemon(options);
    serve(replay, 'anthropic-messages', 'text-only');
    expect(await (await state.daemon.daemon.sessions.open(id)).submit([{ type: 'text', text: 'Et toi ?' }]).outcome).toEqual({ stopReason: 'end_turn' });
    const toAnthropic = JSON.stringify(replay.requests[2]!.body);
    expect(toAnthropic).not.toContain(BEDROCK_SIGNATURE);
    expect(toAnthropic).toContain('<thinking>\\nThe user greets me in French. A short answer will do.\\n</thinking>');
  });

  it('from Bedrock: Anthropic answers when Bedrock is unavailable; Bedrock later gets that reasoning as text only, and its own signature back', async () => {
    const { replay, workspace, state } = await start(BEDROCK, ANTHROPIC);
    const session = await state.daemon!.daemon.sessions.create({ cwd: workspace });
    serveBedrockUnavailable(replay);
    serve(replay, 'anthropic-messages', 'thinking-with-signature');
    expect(await session.submit([{ type: 'text', text: 'What is 27 × 453?' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect((await state.daemon!.daemon.sessions.messages(session.id)).filter((m) => m.role === 'assistant').map((m) => m.model)).toEqual([ANTHROPIC]);

    serve(replay, 'bedrock', 'text-with-reasoning');
    expect(await session.submit([{ type: 'text', text: 'Salut !' }]).outcome).toEqual({ stopReason: 'end_turn' });
    const toBedrock = replay.requests[2]!;
    expect(toBedrock.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream');
    const body = JSON.stringify(toBedrock.body);
    expect(body).not.toContain(ANTHROPIC_SIGNATURE);
    expect(body).toContain('<thinking>\\nThe user wants 27 * 453. Let me compute: 27*453 = 12231.\\n</thinking>');

    // A third turn on Bedrock sends its own reasoning back with its signature.
    serve(replay, 'bedrock', 'answer-after-tool');
    expect(await session.submit([{ type: 'text', text: 'Merci.' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(JSON.stringify(replay.requests[3]!.body)).toContain(`"reasoningContent":{"reasoningText":{"text":"The user greets me in French. A short answer will do.","signature":"${BEDROCK_SIGNATURE}"}}`);
  });
});
