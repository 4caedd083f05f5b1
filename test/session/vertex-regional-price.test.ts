import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { loadFixture } from '../support/load-fixture.js';
import { startReplayServer } from '../support/replay-server.js';

// A turn on a `vertex` provider is priced where the provider calls: the catalog's global
// prices at `global`, its regional prices (Claude 4.5 models: +10%, from Anthropic's
// "Claude on Vertex AI", "Global vs regional endpoints") anywhere else. The Vertex endpoint is
// the replay server (providers.vertex.baseUrl); the token comes from a loopback token endpoint.
describe('the cost of a Vertex turn follows the provider location', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The USD cost the daemon reports for one answer of `model` on a `vertex` provider at `location`. */
  async function costOfTurn(model: string, fixture: string, location: string): Promise<number> {
    const tokens = await startReplayServer({
      respond: () => ({ headers: { 'content-type': 'application/json' }, body: '{"access_token":"ya29.price-token","expires_in":3599,"token_type":"Bearer"}' }),
    });
    cleanups.push(() => tokens.close());
    const replay = await startReplayServer();
    cleanups.push(() => replay.close());
    const dir = mkdtempSync(join(tmpdir(), 'agentd-vertex-price-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const credentialsFile = join(dir, 'application_default_credentials.json');
    writeFileSync(
      credentialsFile,
      JSON.stringify({ type: 'authorized_user', client_id: 'agentd-price.apps.googleusercontent.com', client_secret: 'agentd-price-secret', refresh_token: '1//0gPriceRefresh', token_uri: `${tokens.url}/token` }),
    );
    // Provider id `vertex`, so the turn uses the catalog's `vertex/…` entries and no config prices.
    const home = makeHome({ model: `vertex/${model}`, providers: { vertex: { type: 'vertex', baseUrl: replay.url, project: 'agentd-price', location, credentialsFile, maxRetries: 0 } } });
    cleanups.push(() => home.cleanup());
    const env = daemonEnv(home.home, { HOME: home.home });
    for (const name of ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GCE_METADATA_HOST']) delete env[name];
    const started = await startDaemon({ cwd: dir, env, version: 'test', write: () => {} });
    cleanups.push(() => started.shutdown());

    replay.enqueue({ body: loadFixture('vertex', fixture).bytes });
    const session = await started.daemon.sessions.create({ cwd: dir });
    const events: LoopEvent[] = [];
    session.subscribe((event) => void events.push(event as LoopEvent));
    expect(await session.submit([{ type: 'text', text: 'Hello' }]).outcome).toEqual({ stopReason: 'end_turn' });
    expect(replay.requests[0]?.path).toContain(`/locations/${location}/publishers/`);
    const usage = events.find((event) => event.type === 'usage') as { model: string; costUsd: number } | undefined;
    expect(usage?.model).toBe(`vertex/${model}`);
    return usage!.costUsd;
  }

  it('Claude Sonnet 4.5 at us-east5 costs 10% more than the same turn at global', async () => {
    // claude/text: 21 input and 12 output tokens, no cache.
    const global = await costOfTurn('claude-sonnet-4-5@20250929', 'claude/text', 'global');
    const regional = await costOfTurn('claude-sonnet-4-5@20250929', 'claude/text', 'us-east5');
    expect(global).toBeCloseTo((21 * 3 + 12 * 15) / 1e6, 12);
    expect(regional).toBeCloseTo((21 * 3.3 + 12 * 16.5) / 1e6, 12);
    expect(regional / global).toBeCloseTo(1.1, 12);
  });

  it('Gemini 2.5 Flash costs the same at us-east5 and at global', async () => {
    // gemini/text: 9 input and 32 output tokens (21 of them reasoning, billed as output).
    const global = await costOfTurn('gemini-2.5-flash', 'gemini/text', 'global');
    const regional = await costOfTurn('gemini-2.5-flash', 'gemini/text', 'us-east5');
    expect(global).toBeCloseTo((9 * 0.3 + 32 * 2.5) / 1e6, 12);
    expect(regional).toBe(global);
  });
});
