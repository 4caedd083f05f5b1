import { GeminiModel } from '../../../src/providers/gemini/gemini-model.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';

const model = 'gemini-2.5-flash';

describeFixtureReplays({
  protocol: 'gemini',
  minimum: 10,
  request: { model, system: [{ text: 'You are terse.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], maxTokens: 1024 },
  createModel: (baseUrl) => new GeminiModel({ provider: 'gemini', modelId: model, baseUrl, apiKey: 'AIzaSyReplayTestKey000000000000000000' }),
});
