import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../support/load-fixture.js';
import { startLoopHarness, type LoopHarness } from '../../support/loop-harness.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// A tool-using turn through the whole daemon (in process) on Vertex's recorded wires: the model
// asks to read README.md, the daemon runs the read tool and sends the result back, the model answers.
// Credentials: gcloud user credentials from providers.local.credentialsFile, refreshed at a loopback
// token endpoint; the Vertex endpoint is the replay server through providers.local.baseUrl.
let tokenEndpoint: ReplayServer;
let dir: string;
let credentialsFile: string;

beforeAll(async () => {
  tokenEndpoint = await startReplayServer({
    respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.e2e-token","expires_in":3599,"token_type":"Bearer"}' }),
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-e2e-'));
  credentialsFile = path.join(dir, 'application_default_credentials.json');
  fs.writeFileSync(
    credentialsFile,
    JSON.stringify({ type: 'authorized_user', client_id: 'agentd-e2e.apps.googleusercontent.com', client_secret: 'agentd-e2e-secret', refresh_token: '1//0gE2eRefresh', quota_project_id: 'agentd-billing', token_uri: `${tokenEndpoint.url}/token` }),
  );
});
afterAll(async () => {
  await tokenEndpoint.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a tool-using turn on Vertex AI through the daemon', () => {
  let h: LoopHarness;
  afterEach(async () => h.close());

  it.each([
    {
      model: 'claude-sonnet-4-5@20250929',
      toolTurn: 'claude/tool-use',
      answer: 'claude/text',
      path: '/v1/projects/agentd-e2e/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
      text: "I'll read the README.Hello from Claude on Vertex AI.",
    },
    {
      model: 'gemini-2.5-flash',
      toolTurn: 'gemini/function-call',
      answer: 'gemini/text',
      path: '/v1/projects/agentd-e2e/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      text: 'Hello from Vertex AI. How can I help today?',
    },
  ])('$model: the read tool runs and its result goes back on the same endpoint', async ({ model, toolTurn, answer, path: endpoint, text }) => {
    h = await startLoopHarness({
      model: `local/${model}`,
      providers: { local: { type: 'vertex', baseUrl: '{REPLAY}', project: 'agentd-e2e', location: 'us-east5', credentialsFile } },
    });
    fs.writeFileSync(path.join(h.workspace, 'README.md'), 'Vertex readme marker 4711\n');
    h.replay.enqueue({ body: loadFixture('vertex', toolTurn).bytes });
    h.replay.enqueue({ body: loadFixture('vertex', answer).bytes });

    expect(await h.peer.call('session/prompt', { sessionId: h.sessionId, prompt: [{ type: 'text', text: 'What does the README say?' }] })).toEqual({ stopReason: 'end_turn' });
    expect(h.peer.agentText(h.sessionId)).toBe(text);

    expect(h.replay.requests.map((request) => [request.method, request.path, request.headers['authorization'], request.headers['x-goog-user-project']])).toEqual([
      ['POST', endpoint, 'Bearer ya29.e2e-token', 'agentd-billing'],
      ['POST', endpoint, 'Bearer ya29.e2e-token', 'agentd-billing'],
    ]);
    const second = JSON.stringify(h.replay.requests[1]?.body);
    expect(second).toContain('Vertex readme marker 4711');
    if (model.startsWith('claude')) {
      const body = h.replay.requests[1]?.body as { anthropic_version: string; model?: string; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
      expect([body.anthropic_version, body.model]).toEqual(['vertex-2023-10-16', undefined]);
      expect(body.messages[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_vrtx_01D7FQ3nWb2sXh8kLpRe4TcM' });
    } else {
      const body = h.replay.requests[1]?.body as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
      expect(body.contents[1]?.parts[0]).toMatchObject({ functionCall: { name: 'read', args: { path: 'README.md' } }, thoughtSignature: 'CikB0e2Kb7Vx3mQ2yL0pTqW8nZs4aHcR1uJfD6gNkE9oYtXvB5iM3w==' });
      expect(body.contents[2]?.parts[0]).toMatchObject({ functionResponse: { name: 'read' } });
    }
  });
});
