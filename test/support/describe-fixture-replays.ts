import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '../../src/providers/language-model.js';
import type { ModelRequest } from '../../src/providers/request.js';
import { accumulateMessage } from './collect-events.js';
import { listFixtures, loadFixture } from './load-fixture.js';
import { toComparableEvents } from './normalize-events.js';
import { replayAllSplits } from './replay-all-splits.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

/**
 * Every transcript of a protocol replayed through its real model class over loopback
 * HTTP — whole, bytewise, at seeded random splits and inside every UTF-8 sequence and
 * CR/LF pair — each yielding exactly the expected events and final message.
 */
export function describeFixtureReplays(options: {
  protocol: string;
  /** The least number of transcripts the protocol must have. */
  minimum: number;
  request: ModelRequest;
  createModel(baseUrl: string): LanguageModel;
}): void {
  describe(`${options.protocol} transcripts replayed over HTTP`, () => {
    let server: ReplayServer;
    let model: LanguageModel;

    beforeAll(async () => {
      server = await startReplayServer();
      model = options.createModel(server.url);
    });
    afterAll(async () => {
      await server.close();
    });

    const scenarios = listFixtures(options.protocol);

    it('has the transcripts the protocol needs', () => {
      expect(scenarios.length).toBeGreaterThanOrEqual(options.minimum);
    });

    it.each(scenarios)('%s: whole, bytewise and at random and tricky splits', async (scenario) => {
      const fixture = loadFixture(options.protocol, scenario);
      const outcomes = await replayAllSplits(server, fixture, () => model.stream(options.request, new AbortController().signal));
      for (const outcome of outcomes) {
        expect({ split: outcome.label, events: toComparableEvents(outcome.events) }).toEqual({ split: outcome.label, events: fixture.expected.events });
        if (fixture.expected.message !== undefined) {
          expect({ split: outcome.label, message: accumulateMessage(outcome.events) }).toEqual({ split: outcome.label, message: fixture.expected.message });
        }
      }
    });
  });
}
