import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../../src/config/agentd-paths.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../../support/store-implementations.js';

const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });

/** Days before today (UTC) as `YYYY-MM-DD`, and an instant at noon that day. */
function daysAgo(days: number): { day: string; noon: Date } {
  const noon = new Date();
  noon.setUTCHours(12, 0, 0, 0);
  noon.setUTCDate(noon.getUTCDate() - days);
  return { day: noon.toISOString().slice(0, 10), noon };
}

// The same daemon on each store implementation (the totals are summed by the store).
describe.each(STORE_IMPLEMENTATIONS)('$name store', (implementation) => {
  if (!implementation.available()) return;
  describe('daemon/costs', () => {
    let database: StoreDatabase;
    let home: ReturnType<typeof makeHome>;
    let daemon: InProcessDaemon;

    /**
     * Writes sessions into the daemon's own store before it starts, each message at
     * the time `at` gives: two projects, three models, messages across UTC midnight.
     */
    async function seed(messages: Array<{ at: string | Date; session: 'a' | 'b'; model: string | null; cost: number | null; tokens?: [number, number] }>): Promise<void> {
      let now = new Date('2025-01-01T00:00:00.000Z');
      const store = await database.open({ now: () => now });
      await store.createSession({ id: 'a', cwd: '/work/alpha' });
      await store.createSession({ id: 'b', cwd: '/work/beta' });
      for (const [index, m] of messages.entries()) {
        now = new Date(m.at);
        await store.appendMessage({
          sessionId: m.session,
          turnId: `t${index}`,
          role: m.model === null ? 'user' : 'assistant',
          content: [],
          model: m.model,
          costUsd: m.cost,
          usage: m.tokens ? usage(...m.tokens) : null,
        });
      }
      await store.close();
    }

    beforeEach(async () => {
      home = makeHome({});
      const file = resolveAgentdPaths(daemonEnv(home.home)).databaseFile;
      mkdirSync(dirname(file), { recursive: true });
      database = await implementation.create({ sqliteFile: file });
    });

    afterEach(async () => {
      await daemon.close();
      await database.dispose();
      home.cleanup();
    });

    async function start(): Promise<InProcessDaemon> {
      daemon = startInProcessDaemon(daemonEnv(home.home, database.daemonEnv), process.cwd());
      await daemon.peer.call('initialize', { protocolVersion: 1 });
      return daemon;
    }

    it('sums the stored messages per UTC day and model, with totals per model and overall, and filters by project', async () => {
      await seed([
        { at: '2025-06-01T23:59:59.999Z', session: 'a', model: 'anthropic/claude-sonnet-4-5', cost: 0.5, tokens: [1000, 100] },
        { at: '2025-06-01T10:00:00.000Z', session: 'b', model: 'anthropic/claude-sonnet-4-5', cost: 0.25, tokens: [500, 50] },
        { at: '2025-06-01T10:00:01.000Z', session: 'b', model: null, cost: null },
        // Just after midnight UTC: the next day.
        { at: '2025-06-02T00:00:00.000Z', session: 'a', model: 'openai/gpt-5-mini', cost: 0.01, tokens: [200, 20] },
        { at: '2025-06-02T08:00:00.000Z', session: 'a', model: 'anthropic/claude-sonnet-4-5', cost: 0.125, tokens: [300, 30] },
        // A local model costs nothing and reports no usage: still a request.
        { at: '2025-06-02T09:00:00.000Z', session: 'b', model: 'local/qwen3', cost: null },
        // Outside the range on both sides.
        { at: '2025-05-31T23:59:59.999Z', session: 'a', model: 'openai/gpt-5-mini', cost: 9 },
        { at: '2025-06-03T00:00:00.000Z', session: 'a', model: 'openai/gpt-5-mini', cost: 9 },
      ]);
      const { peer } = await start();

      const costs = await peer.call('daemon/costs', { since: '2025-06-01', until: '2025-06-02' });
      expect(costs).toEqual({
        days: [
          { day: '2025-06-01', model: 'anthropic/claude-sonnet-4-5', costUsd: 0.75, requests: 2, inputTokens: 1500, outputTokens: 150 },
          { day: '2025-06-02', model: 'anthropic/claude-sonnet-4-5', costUsd: 0.125, requests: 1, inputTokens: 300, outputTokens: 30 },
          { day: '2025-06-02', model: 'local/qwen3', costUsd: 0, requests: 1, inputTokens: 0, outputTokens: 0 },
          { day: '2025-06-02', model: 'openai/gpt-5-mini', costUsd: 0.01, requests: 1, inputTokens: 200, outputTokens: 20 },
        ],
        byModel: [
          { model: 'anthropic/claude-sonnet-4-5', costUsd: 0.875, requests: 3 },
          { model: 'openai/gpt-5-mini', costUsd: 0.01, requests: 1 },
          { model: 'local/qwen3', costUsd: 0, requests: 1 },
        ],
        totalUsd: 0.885,
        since: '2025-06-01',
        until: '2025-06-02',
      });

      const alpha = await peer.call('daemon/costs', { since: '2025-06-01', until: '2025-06-02', cwd: '/work/alpha' });
      expect(alpha.days.map((d) => [d.day, d.model, d.costUsd])).toEqual([
        ['2025-06-01', 'anthropic/claude-sonnet-4-5', 0.5],
        ['2025-06-02', 'anthropic/claude-sonnet-4-5', 0.125],
        ['2025-06-02', 'openai/gpt-5-mini', 0.01],
      ]);
      // One day is a range too.
      expect((await peer.call('daemon/costs', { since: '2025-06-03', until: '2025-06-03' })).totalUsd).toBe(9);
    });

    it('defaults to the 30 UTC days ending today', async () => {
      const recent = daysAgo(2);
      const old = daysAgo(40);
      await seed([
        { at: recent.noon, session: 'a', model: 'openai/gpt-5-mini', cost: 0.5, tokens: [10, 1] },
        { at: old.noon, session: 'a', model: 'openai/gpt-5-mini', cost: 7, tokens: [10, 1] },
      ]);
      const { peer } = await start();
      const costs = await peer.call('daemon/costs', {});
      expect(costs.until).toBe(new Date().toISOString().slice(0, 10));
      expect(costs.since).toBe(daysAgo(29).day);
      expect(costs.days).toEqual([{ day: recent.day, model: 'openai/gpt-5-mini', costUsd: 0.5, requests: 1, inputTokens: 10, outputTokens: 1 }]);
      expect(costs.totalUsd).toBe(0.5);
    });

    it('refuses a malformed or impossible day, and since after until, naming the field and the form', async () => {
      await seed([]);
      const { peer } = await start();
      for (const [params, field] of [
        [{ since: '2025-6-1' }, 'since'],
        [{ until: '2025-02-30' }, 'until'],
        [{ since: '2025-06-01T00:00:00Z' }, 'since'],
        [{ until: 'yesterday' }, 'until'],
      ] as const) {
        const answer = await peer.request('daemon/costs', params);
        expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining(`${field}: `) });
        expect(answer.error!.message).toMatch(/YYYY-MM-DD/);
      }
      const reversed = await peer.request('daemon/costs', { since: '2025-06-02', until: '2025-06-01' });
      expect(reversed.error).toMatchObject({ code: -32602, message: expect.stringMatching(/since: 2025-06-02 is after until 2025-06-01/) });
      const wrongType = await peer.requestUnchecked('daemon/costs', { since: 20250601 });
      expect(wrongType.error).toMatchObject({ code: -32602, message: expect.stringMatching(/since/) });
    });
  });
});
