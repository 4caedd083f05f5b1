import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentdConfigSchema } from '../../../src/config/config-schema.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { loadFixture } from '../../support/load-fixture.js';
import { readmeCodeBlocks } from '../../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// The README's Vertex example, exactly as printed: a valid config whose model resolves to
// Claude on Vertex in that project and location, signed in with gcloud's user credentials.
// Only the endpoint moves to loopback (providers.vertex.baseUrl, as a test or proxy would set it).
let vertex: ReplayServer;
let tokenEndpoint: ReplayServer;
let gcloudDir: string;

beforeAll(async () => {
  vertex = await startReplayServer();
  tokenEndpoint = await startReplayServer({
    respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.readme","expires_in":3599,"token_type":"Bearer"}' }),
  });
  gcloudDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-readme-'));
  fs.writeFileSync(
    path.join(gcloudDir, 'application_default_credentials.json'),
    JSON.stringify({ type: 'authorized_user', client_id: 'readme.apps.googleusercontent.com', client_secret: 'readme-secret', refresh_token: '1//0gReadme', token_uri: `${tokenEndpoint.url}/token` }),
  );
});
afterAll(async () => {
  await vertex.close();
  await tokenEndpoint.close();
  fs.rmSync(gcloudDir, { recursive: true, force: true });
});

describe('README: Google Vertex AI', () => {
  it('configures Claude on Vertex in the named project and location', async () => {
    const [block] = readmeCodeBlocks('README.md', '### Google Vertex AI', 'json');
    const config = AgentdConfigSchema.parse(JSON.parse(block!));
    const providers = { ...config.providers, vertex: { ...config.providers?.['vertex'], baseUrl: vertex.url } };
    const registry = createProviderRegistry({ config: { providers }, env: { CLOUDSDK_CONFIG: gcloudDir } });
    const model = registry.resolve(config.model!);
    vertex.enqueue({ body: loadFixture('vertex/claude', 'text').bytes });
    const events = [];
    for await (const event of model.stream({ model: model.modelId, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] }, new AbortController().signal)) events.push(event);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'end_turn' } });
    expect([vertex.requests[0]?.path, vertex.requests[0]?.headers['authorization']]).toEqual([
      '/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
      'Bearer ya29.readme',
    ]);
  });
});
