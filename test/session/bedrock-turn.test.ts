import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const MODEL_ID = 'us.anthropic.claude-sonnet-4-20250514-v1:0';

function serve(replay: ReplayServer, scenario: string): void {
  const fixture = loadFixture('bedrock', scenario);
  replay.enqueue({ status: fixture.expected.status ?? 200, ...(fixture.expected.headers ? { headers: fixture.expected.headers } : {}), body: fixture.bytes });
}

describe('a Bedrock model in the daemon', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('streams a tool-using turn end to end: signed requests, the tool runs, its result goes back as a toolResult', async () => {
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const home = makeHome({
      model: `bedrock/${MODEL_ID}`,
      providers: {
        bedrock: {
          type: 'bedrock', baseUrl: replay.url, region: 'us-east-1', maxRetries: 0,
          models: { [MODEL_ID]: { contextWindow: 200_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15 } },
        },
      },
    });
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    writeFileSync(join(workspace, 'notes.txt'), 'buy oat milk\n');
    // HOME is the temporary home too, so no ~/.aws of the machine running the tests is read.
    const env = daemonEnv(home.home, {
      HOME: home.home,
      AWS_ACCESS_KEY_ID: 'ASIAEXAMPLETEMPORARY',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      AWS_SESSION_TOKEN: 'IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN',
    });
    for (const name of ['AWS_PROFILE', 'AWS_BEARER_TOKEN_BEDROCK', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE']) delete env[name];
    const daemon = await startDaemon({ cwd: workspace, env, version: 'test', write: () => {} });
    cleanups.push(() => daemon.shutdown());
    const session = await daemon.daemon.sessions.create({ cwd: workspace });

    serve(replay, 'tool-use-read');
    serve(replay, 'answer-after-tool');
    expect(await session.submit([{ type: 'text', text: 'What does notes.txt say?' }]).outcome).toEqual({ stopReason: 'end_turn' });

    expect(replay.requests).toHaveLength(2);
    for (const request of replay.requests) {
      expect(request.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream');
      expect(request.headers['authorization']).toMatch(
        /^AWS4-HMAC-SHA256 Credential=ASIAEXAMPLETEMPORARY\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-length;content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
      );
      expect(request.headers['x-amz-security-token']).toBe('IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN');
    }
    const [first, second] = replay.requests.map((r) => r.body as Record<string, unknown>);
    expect(first).toMatchObject({ inferenceConfig: { maxTokens: 64_000 }, messages: [{ role: 'user', content: [{ text: 'What does notes.txt say?' }] }] });
    expect(JSON.stringify((first as { toolConfig: unknown }).toolConfig)).toContain('"name":"read"');
    expect(second).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_Rd8fQ2xMSPa1Gm0Yt7cLkA', name: 'read', input: { path: 'notes.txt' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_Rd8fQ2xMSPa1Gm0Yt7cLkA' } }] },
      ],
    });
    expect(JSON.stringify(second)).toContain('buy oat milk');

    const assistant = (await daemon.daemon.sessions.messages(session.id)).filter((m) => m.role === 'assistant');
    expect(assistant.map((m) => m.model)).toEqual([`bedrock/${MODEL_ID}`, `bedrock/${MODEL_ID}`]);
    expect(assistant.at(-1)?.content).toEqual([{ type: 'text', text: 'The note says: buy oat milk.' }]);
  });
});
