import { AnthropicMessagesModel } from '../../../src/providers/anthropic-messages/anthropic-messages-model.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';

const model = 'claude-sonnet-4-5-20250929';

describeFixtureReplays({
  protocol: 'anthropic-messages',
  minimum: 14,
  request: { model, system: [{ text: 'You are terse.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], maxTokens: 1024 },
  createModel: (baseUrl) => new AnthropicMessagesModel({ provider: 'anthropic', modelId: model, baseUrl, apiKey: 'sk-ant-test-key-0000' }),
});
