import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { startGoogleMetadataServer } from '../../support/google-metadata-server.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

let vertex: ReplayServer;
let metadata: ReplayServer;
let home: string;

beforeAll(async () => {
  vertex = await startReplayServer();
  metadata = await startGoogleMetadataServer();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-vertex-registry-'));
});
afterAll(async () => {
  await vertex.close();
  await metadata.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const request = (model: string) => ({ model, system: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] }], tools: [], maxTokens: 256 });

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('type "vertex" in the provider registry', () => {
  const env = (): NodeJS.ProcessEnv => ({ HOME: home, GCE_METADATA_HOST: new URL(metadata.url).host });
  const config = () => ({ providers: { gcp: { type: 'vertex' as const, baseUrl: vertex.url, project: 'agentd-test', location: 'us-east5', maxRetries: 0 } } });

  it('resolves both publishers, speaking each one wire, and one token serves every model of the provider', async () => {
    const registry = createProviderRegistry({ config: config(), env: env() });
    const claude = registry.resolve('gcp/claude-haiku-4-5@20251001');
    const gemini = registry.resolve('gcp/gemini-2.5-pro');
    expect([claude.protocol, gemini.protocol]).toEqual(['anthropic-messages', 'gemini']);
    const before = metadata.requests.length;
    vertex.enqueue({ body: loadFixture('vertex/claude', 'text').bytes });
    vertex.enqueue({ body: loadFixture('vertex/gemini', 'text').bytes });
    await drain(claude.stream(request('claude-haiku-4-5@20251001'), new AbortController().signal));
    await drain(registry.resolve('gcp/gemini-2.5-pro').stream(request('gemini-2.5-pro'), new AbortController().signal));
    expect(metadata.requests.length - before).toBe(1);
    expect(vertex.requests.slice(-2).map((r) => r.path)).toEqual([
      '/v1/projects/agentd-test/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict',
      '/v1/projects/agentd-test/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    ]);
  });

  it('answers a 403 with its own line, without the API-key hint other providers get', async () => {
    const registry = createProviderRegistry({ config: config(), env: env() });
    const fixture = loadFixture('vertex/gemini', 'http-403-permission-denied');
    vertex.enqueue({ status: 403, headers: { 'content-type': 'application/json' }, body: fixture.bytes });
    const events = await drain(registry.resolve('gcp/gemini-2.5-flash').stream(request('gemini-2.5-flash'), new AbortController().signal));
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.error.message : undefined).toBe(
      `gcp (vertex) HTTP 403: access denied for model gemini-2.5-flash in project agentd-test, location us-east5, with the metadata server at ${metadata.url} (PERMISSION_DENIED: Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/agentd-test/locations/global/publishers/google/models/gemini-2.5-flash' (or it may not exist).); check that the Vertex AI API is enabled in the project and that the account has roles/aiplatform.user`,
    );
  });

  it('retries a 429 as the other providers do', async () => {
    const registry = createProviderRegistry({ config: { providers: { gcp: { ...config().providers.gcp, maxRetries: 1, maxRetryDelayMs: 10 } } }, env: env() });
    vertex.enqueue({ status: 429, headers: { 'content-type': 'application/json' }, body: loadFixture('vertex/claude', 'http-429-quota-exceeded').bytes });
    vertex.enqueue({ body: loadFixture('vertex/claude', 'text').bytes });
    const events = await drain(registry.resolve('gcp/claude-sonnet-4-5@20250929').stream(request('claude-sonnet-4-5@20250929'), new AbortController().signal));
    expect(events.filter((e) => e.type === 'retry').length).toBe(1);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'end_turn' } });
  });

  it("names the location it calls, for pricing: config, then GOOGLE_CLOUD_LOCATION, then global; other providers have none", () => {
    expect(createProviderRegistry({ config: config(), env: env() }).location('gcp')).toBe('us-east5');
    const unset = { providers: { gcp: { type: 'vertex' as const, project: 'agentd-test' } } };
    expect(createProviderRegistry({ config: unset, env: { ...env(), GOOGLE_CLOUD_LOCATION: 'europe-west1' } }).location('gcp')).toBe('europe-west1');
    expect(createProviderRegistry({ config: unset, env: env() }).location('gcp')).toBe('global');
    expect(createProviderRegistry({ config: config(), env: env() }).location('anthropic')).toBeUndefined();
    expect(() => createProviderRegistry({ config: { providers: { gcp: { type: 'vertex', location: 'US East' } } }, env: env() }).location('gcp')).toThrow(
      'provider "gcp" (vertex): location "US East" is not a Vertex location',
    );
  });

  it('is not configured without a project; its model list is a token check (no model called)', async () => {
    const registry = createProviderRegistry({ config: { providers: { gcp: { type: 'vertex' } } }, env: env() });
    expect(registry.isConfigured('gcp')).toBe(false);
    expect(() => registry.resolve('gcp/gemini-2.5-pro')).toThrow('provider "gcp" (vertex) needs a Google Cloud project');
    const configured = createProviderRegistry({ config: config(), env: env() });
    expect(await configured.listModels('gcp', 1000)).toEqual({
      kind: 'not-listed',
      protocol: 'vertex',
      reason: `an access token from the metadata server at ${metadata.url} for project agentd-test, location us-east5; Vertex AI offers models per project in Model Garden, not listed`,
    });
  });
});
