import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../support/load-fixture.js';
import { startLoopHarness, type LoopHarness } from '../support/loop-harness.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** The Vertex Gemini transcript's thought signature: bound to Gemini, it must never reach Claude. */
const GEMINI_SIGNATURE = 'CikB0e2Kb7Vx3mQ2yL0pTqW8nZs4aHcR1uJfD6gNkE9oYtXvB5iM3w==';

let tokenEndpoint: ReplayServer;
let dir: string;
let credentialsFile: string;

beforeAll(async () => {
  tokenEndpoint = await startReplayServer({
    respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.switch","expires_in":3599,"token_type":"Bearer"}' }),
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-switch-'));
  credentialsFile = path.join(dir, 'adc.json');
  fs.writeFileSync(credentialsFile, JSON.stringify({ type: 'authorized_user', client_id: 'switch.apps.googleusercontent.com', client_secret: 'switch-secret', refresh_token: '1//0gSwitch', token_uri: `${tokenEndpoint.url}/token` }));
});
afterAll(async () => {
  await tokenEndpoint.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Vertex AI in a session with other models', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it('carries the tool calls across both wires, and Gemini signatures never reach Claude', async () => {
    h = await startLoopHarness({
      model: 'vtx/claude-sonnet-4-5@20250929',
      providers: { vtx: { type: 'vertex', baseUrl: '{REPLAY}', project: 'agentd-test', location: 'global', credentialsFile } },
    });
    fs.writeFileSync(path.join(h.workspace, 'README.md'), 'switch readme\n');
    const prompt = async (text: string): Promise<unknown> => h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text }] });
    const switchTo = async (value: string): Promise<unknown> => h.peer.call('session/set_config_option', { sessionId: h.sessionId, configId: 'model', value });

    h.replay.enqueue({ body: loadFixture('vertex/claude', 'tool-use').bytes });
    h.replay.enqueue({ body: loadFixture('vertex/claude', 'text').bytes });
    expect(await prompt('Read the README')).toEqual({ stopReason: 'end_turn' });

    await switchTo('vtx/gemini-2.5-flash');
    h.replay.enqueue({ body: loadFixture('vertex/gemini', 'function-call').bytes });
    h.replay.enqueue({ body: loadFixture('vertex/gemini', 'text').bytes });
    expect(await prompt('Read it again')).toEqual({ stopReason: 'end_turn' });

    // Gemini on Vertex gets Claude's call as a functionCall/functionResponse pair, without Claude's id.
    const gemini = h.replay.requests[2]?.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
    expect(gemini.contents.slice(1, 3).map((content) => [content.role, Object.keys(content.parts.at(-1) ?? {})[0]])).toEqual([
      ['model', 'functionCall'],
      ['user', 'functionResponse'],
    ]);
    expect(gemini.contents[1]?.parts.at(-1)).toEqual({ functionCall: { name: 'read', args: { path: 'README.md' } } });

    await switchTo('vtx/claude-sonnet-4-5@20250929');
    h.replay.enqueue({ body: loadFixture('vertex/claude', 'text').bytes });
    expect(await prompt('Thanks')).toEqual({ stopReason: 'end_turn' });

    const claude = h.replay.requests[4]?.body as { anthropic_version: string; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(claude.anthropic_version).toBe('vertex-2023-10-16');
    const toolUses = claude.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.id));
    expect(toolUses).toEqual(['toolu_vrtx_01D7FQ3nWb2sXh8kLpRe4TcM', expect.stringMatching(/^[A-Za-z0-9_-]+$/)]);
    expect(JSON.stringify(claude)).not.toContain(GEMINI_SIGNATURE);
    expect(h.replay.requests.map((request) => request.path.replace(/^.*\/publishers\//, ''))).toEqual([
      'anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
      'anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
      'google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      'google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      'anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    ]);
  });
  it('takes over as the fallback when the Anthropic API is overloaded, and the fallback event names it', async () => {
    h = await startLoopHarness({
      model: 'anthropic/claude-sonnet-4-5',
      fallbackModel: 'vtx/claude-sonnet-4-5@20250929',
      providers: {
        anthropic: { type: 'anthropic-messages', baseUrl: '{REPLAY}', apiKey: 'sk-ant-test-key-0000', maxRetries: 0 },
        vtx: { type: 'vertex', baseUrl: '{REPLAY}', project: 'agentd-test', location: 'global', credentialsFile },
      },
    });
    const overloaded = loadFixture('anthropic-messages', 'http-529-overloaded-error');
    h.replay.enqueue({ status: 529, headers: { 'content-type': 'application/json' }, body: overloaded.bytes });
    h.replay.enqueue({ body: loadFixture('vertex/claude', 'text').bytes });
    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    expect(h.peer.agentText(h.sessionId)).toBe('Hello from Claude on Vertex AI.');
    expect(h.replay.requests.map((request) => [request.path, request.headers['authorization'] ?? request.headers['x-api-key']])).toEqual([
      ['/v1/messages', 'sk-ant-test-key-0000'],
      ['/v1/projects/agentd-test/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict', 'Bearer ya29.switch'],
    ]);
    const events = h.peer.received.filter((m) => m.method === 'agentd/event').map((m) => m.params.event);
    expect(events.find((e) => e.type === 'fallback')).toMatchObject({ from: 'anthropic/claude-sonnet-4-5', to: 'vtx/claude-sonnet-4-5@20250929' });
  });
});
