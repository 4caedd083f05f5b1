import { describe, expect, it } from 'vitest';
import { classifyAnthropicMessagesError } from '../../../src/providers/anthropic-messages/anthropic-messages-error.js';
import { classifyGeminiError } from '../../../src/providers/gemini/gemini-error.js';
import { kindFromHttpStatus } from '../../../src/providers/http/kind-from-http-status.js';
import { classifyOpenAIChatError } from '../../../src/providers/openai-chat/openai-chat-error.js';
import { classifyOpenAIResponsesHttpError } from '../../../src/providers/openai-responses/openai-responses-error.js';
import { ProviderError } from '../../../src/providers/provider-error.js';

const context = { provider: 'p', model: 'm' };
const classifiers: Array<[string, (status: number) => ProviderError]> = [
  ['anthropic-messages', (status) => classifyAnthropicMessagesError(context, status, '', new Headers())],
  ['gemini', (status) => classifyGeminiError(context, status, '', new Headers())],
  ['openai-chat', (status) => classifyOpenAIChatError(context, status, '', new Headers())],
  ['openai-responses', (status) => classifyOpenAIResponsesHttpError(status, '', new Headers(), context)],
];

describe('kindFromHttpStatus', () => {
  it.each([
    [401, 'auth'],
    [404, 'not_found'],
    [408, 'timeout'],
    [409, 'server'],
    [429, 'rate_limit'],
    [500, 'server'],
    [503, 'overloaded'],
    [504, 'timeout'],
    [529, 'overloaded'],
    [400, 'bad_request'],
  ])('%i → %s', (status, kind) => {
    expect(kindFromHttpStatus(status)).toBe(kind);
  });

  it.each(classifiers)('%s retries what withResilience promises (408, 409, 429, 5xx, 529) and nothing else', (_name, classify) => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) expect({ status, retryable: classify(status).retryable }).toEqual({ status, retryable: true });
    for (const status of [400, 401, 403, 404, 413]) expect({ status, retryable: classify(status).retryable }).toEqual({ status, retryable: false });
  });
});
