import { describeProviderFaults } from './provider-fault-cases.js';

describeProviderFaults({
  type: 'openai-responses',
  textFixture: 'text-basic',
  baseUrl: (url) => `${url}/v1`,
  errorFixtures: { 429: 'http-429-rate-limit-retry-after' },
  // https://platform.openai.com/docs/guides/error-codes
  errorBody: (status) => JSON.stringify({ error: { message: `HTTP ${status} from the test`, type: 'server_error', param: null, code: null } }),
});
