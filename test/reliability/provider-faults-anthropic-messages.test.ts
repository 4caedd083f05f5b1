import { describeProviderFaults } from './provider-fault-cases.js';

describeProviderFaults({
  type: 'anthropic-messages',
  textFixture: 'text-only',
  baseUrl: (url) => url,
  errorFixtures: { 429: 'http-429-rate-limit-error', 500: 'http-500-api-error', 529: 'http-529-overloaded-error' },
  // https://docs.anthropic.com/en/api/errors
  errorBody: (status) => JSON.stringify({ type: 'error', error: { type: status === 503 ? 'api_error' : 'overloaded_error', message: `HTTP ${status} from the test` } }),
});
