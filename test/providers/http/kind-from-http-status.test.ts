import { describe, expect, it } from 'vitest';
import { classifyAnthropicMessagesError } from '../../../src/providers/anthropic-messages/anthropic-messages-error.js';
import { classifyBedrockError } from '../../../src/providers/bedrock/bedrock-error.js';
import { classifyCohereError } from '../../../src/providers/cohere/cohere-error.js';
import { classifyGeminiError } from '../../../src/providers/gemini/gemini-error.js';
import { kindFromHttpStatus } from '../../../src/providers/http/kind-from-http-status.js';
import { classifyOpenAIChatError } from '../../../src/providers/openai-chat/openai-chat-error.js';
import { classifyOpenAIResponsesHttpError } from '../../../src/providers/openai-responses/openai-responses-error.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { classifyVertexError } from '../../../src/providers/vertex/vertex-error.js';

const context = { provider: 'p', model: 'm' };
const bedrock = { ...context, region: 'us-east-1', credentialsFrom: 'the AWS_ACCESS_KEY_ID environment variable' };
const vertex = { ...context, project: 'agentd-test', location: 'global', credential: 'the gcloud user credentials' };
/** Vertex answers in Google's error form for both publishers (google.rpc codes as HTTP maps them), Claude's own failures in Anthropic's. */
const GOOGLE_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ABORTED', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };
const googleBody = (status: number): string => JSON.stringify({ error: { code: status, message: 'x', status: GOOGLE_STATUS[status] ?? 'UNKNOWN' } });
const classifiers: Array<[string, (status: number) => ProviderError]> = [
  ['anthropic-messages', (status) => classifyAnthropicMessagesError(context, status, '', new Headers())],
  ['gemini', (status) => classifyGeminiError(context, status, '', new Headers())],
  ['openai-chat', (status) => classifyOpenAIChatError(context, status, '', new Headers())],
  ['openai-responses', (status) => classifyOpenAIResponsesHttpError(status, '', new Headers(), context)],
  ['cohere', (status) => classifyCohereError(context, status, '', new Headers())],
  ['bedrock', (status) => classifyBedrockError(bedrock, status, '', new Headers())],
  ['vertex (Google error form)', (status) => classifyVertexError(vertex, status, googleBody(status), new Headers())],
  ['vertex (Anthropic error form)', (status) => classifyVertexError(vertex, status, '{"type":"error","error":{"type":"api_error","message":"x"}}', new Headers())],
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
