import { BedrockModel } from '../../../src/providers/bedrock/bedrock-model.js';
import { describeFixtureReplays } from '../../support/describe-fixture-replays.js';

// The transcripts are binary AWS event-stream frames written by
// test/fixtures/bedrock/build-fixtures.mjs; test/fixtures/bedrock/README.md names the
// sources of their encoding and their payloads.
const model = 'us.anthropic.claude-sonnet-4-20250514-v1:0';

describeFixtureReplays({
  protocol: 'bedrock',
  minimum: 7,
  request: { model, system: [{ text: 'You are terse.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Salut !' }] }], tools: [], maxTokens: 1024 },
  createModel: (baseUrl) =>
    new BedrockModel({
      provider: 'bedrock',
      modelId: model,
      baseUrl,
      identity: () => ({
        region: 'us-east-1',
        credentials: { kind: 'sigv4', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', from: 'the test' },
      }),
    }),
});
