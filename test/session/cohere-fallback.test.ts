import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const PRIMARY = 'cohere/command-a-03-2025';
const FALLBACK = 'anthropic/claude-sonnet-4-5-20250929';
/** The Anthropic fixture's thinking signature: bound to Anthropic, it must never reach Cohere. */
const ANTHROPIC_SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds6I4dSXiEVOc0jQPQKXaGHa7pHpX2WQqPBXW4f3Sxd2S9vJDVMzhgk3PC2eDMBfOU6Ri3Ai7UXcw0WIy1';

function serve(replay: ReplayServer, protocol: string, scenario: string): void {
  const fixture = loadFixture(protocol, scenario);
  replay.enqueue({ status: fixture.expected.status ?? 200, ...(fixture.expected.headers ? { headers: fixture.expected.headers } : {}), body: fixture.bytes });
}

describe('Cohere in a fallback', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('unavailable Cohere falls back to Anthropic, and the next turn gives Cohere that reasoning as text only', async () => {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({
      model: PRIMARY,
      fallbackModel: FALLBACK,
      providers: {
        cohere: { baseUrl: replay.url, apiKey: 'co-test-key-0000', maxRetries: 0 },
        anthropic: { type: 'anthropic-messages', baseUrl: replay.url, apiKey: 'sk-ant-test-key-0000' },
      },
    });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const started = await startDaemon({ cwd: workspace, env: daemonEnv(home.home), version: 'test', write: () => {} });
    cleanups.push(() => started.shutdown());
    const session = await started.daemon.sessions.create({ cwd: workspace });
    const events: LoopEvent[] = [];
    session.subscribe((event) => void events.push(event as LoopEvent));

    serve(replay, 'cohere', 'http-503-service-unavailable');
    serve(replay, 'anthropic-messages', 'thinking-with-signature');
    expect(await session.submit([{ type: 'text', text: 'What is 27 × 453?' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: PRIMARY, to: FALLBACK });

    serve(replay, 'cohere', 'text');
    expect(await session.submit([{ type: 'text', text: 'And the capital of France?' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(replay.requests.map((r) => r.path)).toEqual(['/v2/chat', '/v1/messages', '/v2/chat']);
    const toCohere = replay.requests[2]!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(toCohere)).not.toContain(ANTHROPIC_SIGNATURE);
    expect(toCohere.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(toCohere.messages[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: '<thinking>\nThe user wants 27 * 453. Let me compute: 27*453 = 12231.\n</thinking>' },
        { type: 'text', text: '27 × 453 = 12,231.' },
      ],
    });
    const models = (await started.daemon.sessions.messages(session.id)).filter((m) => m.role === 'assistant').map((m) => m.model);
    expect(models).toEqual([FALLBACK, PRIMARY]);
  });
});
