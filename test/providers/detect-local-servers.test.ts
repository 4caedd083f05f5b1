import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectLocalServers } from '../../src/providers/detect-local-servers.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

describe('detectLocalServers', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const json = { 'content-type': 'application/json' };
  const candidate = () => [{ name: 'LM Studio', provider: 'lmstudio', baseUrl: `${server.url}/v1` }];

  it('lists the ids a server reports, leaving out entries without a string id', async () => {
    server.enqueue({ headers: json, body: '{"object":"list","data":[{"id":"qwen3-8b"},{"id":7},{"object":"model"},{"id":"gemma-3"}]}' });
    expect(await detectLocalServers(2000, candidate())).toEqual([{ ...candidate()[0], models: ['qwen3-8b', 'gemma-3'] }]);
    expect(server.requests.at(-1)?.path).toBe('/v1/models');
  });

  it('does not count a server whose answer is not a model list, or not 200', async () => {
    server.enqueue({ headers: json, body: 'null' });
    expect(await detectLocalServers(2000, candidate())).toEqual([]);
    server.enqueue({ headers: json, body: '{"data":"none"}' });
    expect(await detectLocalServers(2000, candidate())).toEqual([]);
    server.enqueue({ status: 404, headers: json, body: '{}' });
    expect(await detectLocalServers(2000, candidate())).toEqual([]);
  });
});
