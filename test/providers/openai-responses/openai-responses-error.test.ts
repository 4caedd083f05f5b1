import { describe, expect, it } from 'vitest';
import {
  classifyOpenAIResponsesHttpError,
  openAIResponsesStreamError,
} from '../../../src/providers/openai-responses/openai-responses-error.js';

const context = { provider: 'openai', model: 'gpt-5.1' };
const json = (error: Record<string, unknown>): string => JSON.stringify({ error });

describe('classifyOpenAIResponsesHttpError', () => {
  const cases: Array<[number, string, string]> = [
    [401, json({ message: 'bad key', code: 'invalid_api_key' }), 'auth'],
    [403, json({ message: 'Country, region, or territory not supported', code: 'unsupported_country_region_territory' }), 'auth'],
    [404, json({ message: 'The model `gpt-9` does not exist', code: 'model_not_found' }), 'not_found'],
    [429, json({ message: 'slow down', code: 'rate_limit_exceeded', type: 'requests' }), 'rate_limit'],
    [429, json({ message: 'quota', code: 'insufficient_quota', type: 'insufficient_quota' }), 'quota'],
    [400, json({ message: 'Your input exceeds the context window of this model.', code: 'context_length_exceeded' }), 'context_overflow'],
    [400, json({ message: "This model's maximum context length is 128000 tokens." }), 'context_overflow'],
    [400, json({ message: "Unsupported parameter: 'temperature'", code: 'unsupported_parameter', param: 'temperature' }), 'bad_request'],
    [408, 'timeout', 'timeout'],
    [500, json({ message: 'The server had an error', type: 'server_error' }), 'server'],
    [502, '<html>Bad gateway</html>', 'server'],
    [503, json({ message: 'The engine is currently overloaded', type: 'server_error' }), 'overloaded'],
  ];
  for (const [status, body, kind] of cases) {
    it(`HTTP ${status} ${body.slice(0, 60)} → ${kind}`, () => {
      const error = classifyOpenAIResponsesHttpError(status, body, new Headers(), context);
      expect(error.kind).toBe(kind);
      expect(error.status).toBe(status);
      expect(error.provider).toBe('openai');
      expect(error.model).toBe('gpt-5.1');
    });
  }

  it('reads a body with a field of the wrong type without failing, keeping the fields it can read', () => {
    const error = classifyOpenAIResponsesHttpError(400, json({ message: { text: 'nested' }, code: 'context_length_exceeded' }), new Headers(), context);
    expect(error.kind).toBe('context_overflow');
    expect(error.message).toBe('openai/gpt-5.1: HTTP 400 context_length_exceeded: no error message');
  });

  it('puts the vendor message and code in the error text, and keeps plain-text bodies', () => {
    expect(classifyOpenAIResponsesHttpError(400, json({ message: 'Bad input', code: 'invalid_value' }), new Headers(), context).message).toBe(
      'openai/gpt-5.1: HTTP 400 invalid_value: Bad input',
    );
    expect(classifyOpenAIResponsesHttpError(502, 'upstream connect error', new Headers(), context).message).toBe(
      'openai/gpt-5.1: HTTP 502: upstream connect error',
    );
  });

  it('masks anything shaped like an API key', () => {
    const error = classifyOpenAIResponsesHttpError(401, json({ message: 'Incorrect API key provided: sk-proj-abcdef123456.' }), new Headers(), context);
    expect(error.message).not.toContain('abcdef123456');
    expect(error.message).toContain('sk-***');
  });

  it('reads the retry delay only for rate limits and overload', () => {
    const headers = new Headers({ 'retry-after': '3', 'retry-after-ms': 'soon' });
    expect(classifyOpenAIResponsesHttpError(429, json({ code: 'rate_limit_exceeded' }), headers, context).retryAfterMs).toBe(3000);
    expect(classifyOpenAIResponsesHttpError(503, '', headers, context).retryAfterMs).toBe(3000);
    expect(classifyOpenAIResponsesHttpError(400, '', headers, context).retryAfterMs).toBeUndefined();
  });
});

describe('openAIResponsesStreamError', () => {
  it('classifies by code, then type, then text, defaulting to server', () => {
    expect(openAIResponsesStreamError({ code: 'rate_limit_exceeded', message: 'x' }, context, false).kind).toBe('rate_limit');
    expect(openAIResponsesStreamError({ type: 'insufficient_quota', message: 'x' }, context, false).kind).toBe('quota');
    expect(openAIResponsesStreamError({ message: 'prompt is too long for the context window' }, context, false).kind).toBe('context_overflow');
    expect(openAIResponsesStreamError({ code: 'invalid_base64_image', message: 'x' }, context, false).kind).toBe('bad_request');
    expect(openAIResponsesStreamError({ code: 'vector_store_timeout', message: 'x' }, context, false).kind).toBe('timeout');
    const unknown = openAIResponsesStreamError({ code: 'something_new', message: '' }, context, true);
    expect(unknown.kind).toBe('server');
    expect(unknown.midStream).toBe(true);
    expect(unknown.message).toBe('openai/gpt-5.1: something_new: the response failed without a message');
  });
});
