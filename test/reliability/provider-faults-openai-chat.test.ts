import { describeProviderFaults } from './provider-fault-cases.js';

describeProviderFaults({
  type: 'openai-chat',
  textFixture: 'text-with-usage',
  baseUrl: (url) => `${url}/v1`,
  errorFixtures: { 429: 'http-429-rate-limit' },
  // https://platform.openai.com/docs/guides/error-codes
  errorBody: (status) => JSON.stringify({ error: { message: `HTTP ${status} from the test`, type: 'server_error', param: null, code: null } }),
});
