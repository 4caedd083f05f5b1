import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModel } from '../../../src/providers/gemini/gemini-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { accumulateMessage } from '../../support/collect-events.js';
import { listFixtures, loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { replayAllSplits } from '../../support/replay-all-splits.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const protocol = 'gemini';

const request: ModelRequest = {
  model: 'gemini-2.5-flash',
  system: [{ text: 'You are terse.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  maxTokens: 1024,
};

describe('gemini transcripts replayed over HTTP', () => {
  let server: ReplayServer;
  let model: GeminiModel;

  beforeAll(async () => {
    server = await startReplayServer();
    model = new GeminiModel({ provider: 'gemini', modelId: request.model, baseUrl: server.url, apiKey: 'AIzaSyReplayTestKey000000000000000000' });
  });
  afterAll(async () => {
    await server.close();
  });

  const scenarios = listFixtures(protocol);

  it('has the transcripts the protocol needs', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
  });

  it.each(scenarios)('%s: whole, bytewise and at random and tricky splits', async (scenario) => {
    const fixture = loadFixture(protocol, scenario);
    const outcomes = await replayAllSplits(server, fixture, () => model.stream(request, new AbortController().signal));
    for (const outcome of outcomes) {
      expect({ split: outcome.label, events: toComparableEvents(outcome.events) }).toEqual({
        split: outcome.label,
        events: fixture.expected.events,
      });
      if (fixture.expected.message !== undefined) {
        expect({ split: outcome.label, message: accumulateMessage(outcome.events) }).toEqual({
          split: outcome.label,
          message: fixture.expected.message,
        });
      }
    }
  });
});
