import { CohereModel } from '../../../src/providers/cohere/cohere-model.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';

const model = 'command-a-03-2025';

describeFixtureReplays({
  protocol: 'cohere',
  minimum: 15,
  request: { model, system: [{ text: 'You are terse.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], maxTokens: 1024 },
  createModel: (baseUrl) => new CohereModel({ provider: 'cohere', modelId: model, baseUrl, apiKey: 'co-test-key-0000' }),
});
