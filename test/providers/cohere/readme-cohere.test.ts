import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentdConfigSchema } from '../../../src/config/config-schema.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { readmeCodeBlocks } from '../../support/readme-code-blocks.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

describe("the README's Cohere example", () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('loads as printed and streams from Cohere with the key from COHERE_API_KEY', async () => {
    const [example] = readmeCodeBlocks('README.md', '### Cohere', 'json');
    const config = AgentdConfigSchema.parse(JSON.parse(example!));
    expect(config.model).toBe('cohere/command-a-03-2025');
    // CO_API_URL stands in for api.cohere.com, so the test stays on loopback.
    const registry = createProviderRegistry({ config, env: { COHERE_API_KEY: 'co-readme-key-0000', CO_API_URL: server.url } });
    for (const ref of [config.model!, config.fallbackModel!]) {
      server.enqueue({ body: loadFixture('cohere', 'text').bytes });
      const events = await collectEvents(registry.resolve(ref).stream({ model: ref.slice('cohere/'.length), system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] }, new AbortController().signal));
      expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'COMPLETE' } });
      expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer co-readme-key-0000');
      expect((server.requests.at(-1)?.body as { model: string }).model).toBe(ref.slice('cohere/'.length));
    }
  });
});
