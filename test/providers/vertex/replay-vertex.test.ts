import { afterAll, beforeAll } from 'vitest';
import { GoogleAccessTokenSource } from '../../../src/providers/vertex/google-auth/google-access-token-source.js';
import { VertexModel } from '../../../src/providers/vertex/vertex-model.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';
import { startGoogleMetadataServer } from '../../support/google-metadata-server.js';
import type { ReplayServer } from '../../support/replay-server.js';

// Vertex AI's own streams, for both publishers: the transcripts' sources are in
// test/fixtures/vertex/README.md. The token comes from a metadata-server stand-in on loopback,
// named with a fixed origin so the auth messages are the same on every run.
let metadata: ReplayServer;
beforeAll(async () => {
  metadata = await startGoogleMetadataServer();
});
afterAll(async () => {
  await metadata.close();
});

function vertexModel(baseUrl: string, modelId: string): VertexModel {
  const tokens = new GoogleAccessTokenSource({ credentials: { kind: 'metadata', baseUrl: metadata.url, origin: 'the test metadata server' }, env: {} });
  return new VertexModel({ provider: 'vertex', modelId, baseUrl, project: 'agentd-test', location: 'global', tokens });
}

const request = (model: string) => ({
  model,
  system: [{ text: 'You are terse.' }],
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] }],
  tools: [],
  maxTokens: 1024,
});

describeFixtureReplays({
  protocol: 'vertex/gemini',
  minimum: 5,
  request: request('gemini-2.5-flash'),
  createModel: (baseUrl) => vertexModel(baseUrl, 'gemini-2.5-flash'),
});

describeFixtureReplays({
  protocol: 'vertex/claude',
  minimum: 6,
  request: request('claude-sonnet-4-5@20250929'),
  createModel: (baseUrl) => vertexModel(baseUrl, 'claude-sonnet-4-5@20250929'),
});
