import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicMessagesModel } from '../../../src/providers/anthropic-messages/anthropic-messages-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { accumulateMessage } from '../../support/collect-events.js';
import { listFixtures, loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { replayAllSplits } from '../../support/replay-all-splits.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const protocol = 'anthropic-messages';

const request: ModelRequest = {
  model: 'claude-sonnet-4-5-20250929',
  system: [{ text: 'You are terse.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  maxTokens: 1024,
};

describe('anthropic-messages transcripts replayed over HTTP', () => {
  let server: ReplayServer;
  let model: AnthropicMessagesModel;

  beforeAll(async () => {
    server = await startReplayServer();
    model = new AnthropicMessagesModel({ provider: 'anthropic', modelId: request.model, baseUrl: server.url, apiKey: 'sk-ant-test-key-0000' });
  });
  afterAll(async () => {
    await server.close();
  });

  const scenarios = listFixtures(protocol);

  it('has the transcripts the protocol needs', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(14);
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
