import { describeProviderFaults } from './provider-fault-cases.js';

describeProviderFaults({
  type: 'gemini',
  textFixture: 'text-only',
  baseUrl: (url) => url,
  errorFixtures: { 429: 'http-429-retry-info', 500: 'http-500-internal', 503: 'http-503-unavailable' },
  // https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
  errorBody: (status) => JSON.stringify({ error: { code: status, message: `HTTP ${status} from the test`, status: 'UNAVAILABLE' } }),
});
