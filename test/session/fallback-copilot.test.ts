import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { writeCopilotLogin } from '../support/copilot-login-file.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { copilotTokenAnswer, startGitHubStandIn } from '../support/github-stand-in.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const COPILOT = 'copilot/gpt-4o';
const ANTHROPIC = 'anthropic/claude-sonnet-4-5-20250929';

function serve(replay: ReplayServer, protocol: string, scenario: string): void {
  replay.enqueue({ body: loadFixture(protocol, scenario).bytes });
}

describe('GitHub Copilot in fallback and across vendors', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('an unavailable Copilot falls back to another vendor, and the next turn on Copilot carries that answer as its own history', async () => {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    // GitHub's token service is down at first (503: the provider is unavailable, which justifies a fallback); it answers from the second exchange on.
    const github = await startGitHubStandIn({
      exchange: (n) => (n === 0 ? { status: 503, body: { message: 'Service Unavailable' } } : copilotTokenAnswer(replay.url, { token: 'tid=copilot-fallback' })),
    });
    cleanups.push(() => github.close());
    const home = makeHome({
      model: COPILOT,
      fallbackModel: ANTHROPIC,
      providers: {
        copilot: { type: 'copilot', maxRetries: 0 },
        anthropic: { type: 'anthropic-messages', baseUrl: replay.url, apiKey: 'sk-ant-test-key-0000', maxRetries: 0 },
      },
    });
    cleanups.push(() => home.cleanup());
    const env = daemonEnv(home.home);
    await writeCopilotLogin(env, github.url);
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const daemon = await startDaemon({ cwd: workspace, env, version: 'test', write: () => {} });
    cleanups.push(() => daemon.shutdown());

    const session = await daemon.daemon.sessions.create({ cwd: workspace });
    const events: LoopEvent[] = [];
    session.subscribe((event) => void events.push(event as LoopEvent));
    serve(replay, 'anthropic-messages', 'text-only');
    expect(await session.submit([{ type: 'text', text: 'Hi' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: COPILOT, to: ANTHROPIC });
    expect(replay.requests.map((r) => r.path)).toEqual(['/v1/messages']);

    serve(replay, 'copilot', 'text-answer');
    expect(await session.submit([{ type: 'text', text: 'Which port?' }]).outcome).toEqual({ stopReason: 'end_turn' });
    const toCopilot = replay.requests[1]!;
    expect(toCopilot.path).toBe('/chat/completions');
    expect(toCopilot.headers.authorization).toBe('Bearer tid=copilot-fallback');
    const messages = (toCopilot.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(messages.filter((m) => m.role !== 'system')).toEqual([
      expect.objectContaining({ role: 'user' }),
      expect.objectContaining({ role: 'assistant', content: 'Hello! How can I help you today?' }),
      expect.objectContaining({ role: 'user' }),
    ]);
    expect((await daemon.daemon.sessions.messages(session.id)).filter((m) => m.role === 'assistant').map((m) => m.model)).toEqual([ANTHROPIC, COPILOT]);
  });
});
