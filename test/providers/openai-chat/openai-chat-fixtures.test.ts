import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../../src/providers/openai-chat/openai-chat-model.js';
import { createOpenAIChatStreamParser } from '../../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { resolveReasoningTags } from '../../../src/providers/openai-chat/resolve-reasoning-tags.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { accumulateMessage } from '../../support/collect-events.js';
import { listFixtures, loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { fixtureChunkings, replayAllSplits } from '../../support/replay-all-splits.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { splitIntoChunks } from '../../support/split-into-chunks.js';

const scenarios = listFixtures('openai-chat');
const request: ModelRequest = {
  model: 'test-model',
  system: [{ text: 'Be brief.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

it('has at least 12 openai-chat transcripts', () => {
  expect(scenarios.length).toBeGreaterThanOrEqual(12);
});

describe.each(scenarios)('openai-chat fixture %s', (scenario) => {
  const fixture = loadFixture('openai-chat', scenario);
  const expected = toComparableEvents(fixture.expected.events);
  // A transcript of an open reasoning model names it, so its <think> tags are read as the model class reads them.
  const modelId = fixture.expected.model ?? 'test-model';

  it('parses every split of the bytes to the expected events (parser alone)', () => {
    if (fixture.expected.status !== undefined && fixture.expected.status !== 200) return;
    for (const { label, chunking } of fixtureChunkings(fixture.bytes)) {
      const parser = createOpenAIChatStreamParser({ provider: 'replay', model: modelId }, { reasoningTags: resolveReasoningTags(undefined, modelId) });
      const decoder = new TextDecoder();
      const events: StreamEvent[] = [];
      for (const piece of splitIntoChunks(fixture.bytes, chunking)) {
        events.push(...parser.push(decoder.decode(piece, { stream: true })));
      }
      events.push(...parser.push(decoder.decode()), ...parser.end());
      expect(toComparableEvents(events), label).toEqual(expected);
    }
  });

  it('streams the expected events through the real model over HTTP, for every split', async () => {
    const model = new OpenAIChatModel({ provider: 'replay', modelId, baseUrl: `${server.url}/v1`, apiKey: 'sk-test' });
    const outcomes = await replayAllSplits(server, fixture, () => model.stream({ ...request, model: modelId }, new AbortController().signal));
    for (const { label, events } of outcomes) {
      expect(toComparableEvents(events), label).toEqual(expected);
      if (fixture.expected.message !== undefined) expect(accumulateMessage(events), label).toEqual(fixture.expected.message);
    }
  });
});
