import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/provider-config-schema.js';
import { BedrockModel } from '../../../src/providers/bedrock/bedrock-model.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { bedrockSpec } from '../../../src/providers/registry/bedrock-spec.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// Error answers as Bedrock sends them: the exception name in `x-amzn-errortype`, the body
// `{"message": …}` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html, "Errors";
// https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html).
const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
const keys = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

let server: ReplayServer;
let emptyHome: string;
beforeAll(async () => {
  server = await startReplayServer();
  emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-aws-none-'));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(emptyHome, { recursive: true, force: true });
});

function resolve(config: Partial<ProviderConfig> = {}, env: NodeJS.ProcessEnv = keys) {
  const providers = { bedrock: { type: 'bedrock' as const, baseUrl: server.url, region: 'us-east-1', maxRetryDelayMs: 5, ...config } };
  return createProviderRegistry({ config: { providers }, env: { HOME: emptyHome, ...env }, breaker: new CircuitBreaker() }).resolve(`bedrock/${MODEL}`);
}

function awsError(status: number, name: string, message: string) {
  return { status, headers: { 'content-type': 'application/json', 'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` }, body: JSON.stringify({ message }) };
}

function errorOf(events: StreamEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(last)}`);
  return last.error;
}

const textOnly = (): { headers: Record<string, string>; body: Uint8Array } => {
  const fixture = loadFixture('bedrock', 'answer-after-tool');
  return { headers: fixture.expected.headers ?? {}, body: fixture.bytes };
};

describe('Bedrock errors', () => {
  it('access denied is one line naming the model and the region, and is not retried', async () => {
    const before = server.requests.length;
    server.enqueue(awsError(403, 'AccessDeniedException', 'You don\'t have access to the model with the specified model ID.'));
    const error = errorOf(await collectEvents(resolve().stream(request, new AbortController().signal)));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      `bedrock: access denied to model ${MODEL} in region us-east-1: enable it in the Bedrock console (Model access) or check the IAM policy (bedrock:InvokeModelWithResponseStream); AWS said: You don't have access to the model with the specified model ID.`,
    );
    expect(error.message).not.toContain('\n');
    expect(server.requests.length - before).toBe(1);
  });

  it('throttling is retried with backoff, then the answer streams', async () => {
    const before = server.requests.length;
    server.enqueue(awsError(429, 'ThrottlingException', 'Too many requests, please wait before trying again.'));
    server.enqueue(textOnly());
    const events = await collectEvents(resolve().stream(request, new AbortController().signal));
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ type: 'retry', attempt: 1, error: { kind: 'rate_limit' } });
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'end_turn' } });
    expect(server.requests.length - before).toBe(2);
  });

  it('a prompt too long is a context overflow; a bad request otherwise', async () => {
    server.enqueue(awsError(400, 'ValidationException', 'Input is too long for requested model.'));
    const overflow = errorOf(await collectEvents(resolve().stream(request, new AbortController().signal)));
    expect([overflow.kind, overflow.message]).toEqual(['context_overflow', `bedrock (bedrock) HTTP 400 ValidationException for ${MODEL} in us-east-1: Input is too long for requested model.`]);
    server.enqueue(awsError(400, 'ValidationException', 'The provided model identifier is invalid.'));
    expect(errorOf(await collectEvents(resolve().stream(request, new AbortController().signal))).kind).toBe('bad_request');
  });

  it('rejected credentials name where they came from', async () => {
    server.enqueue(awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.'));
    const error = errorOf(await collectEvents(resolve().stream(request, new AbortController().signal)));
    expect(error.message).toBe(
      'bedrock: AWS rejected the credentials from the AWS_ACCESS_KEY_ID environment variable (UnrecognizedClientException): The security token included in the request is invalid.; check the keys, the session token\'s expiry and the clock',
    );
  });

  it('missing credentials are one line at resolve time, naming what was looked for', () => {
    expect(() => resolve({}, {})).toThrow(/^bedrock: no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK \(a Bedrock API key\), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY .* in the \[default\] section of .*credentials$/);
  });

  it('credentials that disappear before a request end it with that line, as an auth error', async () => {
    const model = new BedrockModel({
      provider: 'bedrock',
      modelId: MODEL,
      baseUrl: server.url,
      identity: () => {
        throw new Error('bedrock: no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK …');
      },
    });
    const events = await collectEvents(model.stream(request, new AbortController().signal));
    expect(events).toHaveLength(1);
    expect(errorOf(events)).toMatchObject({ kind: 'auth', message: 'bedrock: no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK …' });
  });
});

describe('Bedrock streams that stop', () => {
  it('a frame that stalls mid-header ends with a timeout, never a hang', async () => {
    const { headers, body } = textOnly();
    // 20 bytes: the first message's prelude and the start of its first header.
    server.enqueue({ headers, body, stallAfterBytes: 20 });
    const events = await collectEvents(resolve({ maxRetries: 0, timeouts: { idleMs: 200 } }).stream(request, new AbortController().signal));
    expect(errorOf(events)).toMatchObject({ kind: 'timeout', message: 'bedrock: the response stream stalled (no bytes for 200 ms); raise timeouts.idleMs if the model pauses longer' });
  });

  it('a connection reset inside a frame is a network error after the content before it', async () => {
    const { headers, body } = textOnly();
    server.enqueue({ headers, body, resetAfterBytes: body.length - 10 });
    const events = await collectEvents(resolve({ maxRetries: 0 }).stream(request, new AbortController().signal));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('')).toBe('The note says: buy oat milk.');
    expect(errorOf(events)).toMatchObject({ kind: 'network', midStream: true });
  });
});

describe('Bedrock requests', () => {
  it('send a Bedrock API key as a bearer token, to the model path of the inference profile', async () => {
    server.enqueue(textOnly());
    await collectEvents(resolve({}, { AWS_BEARER_TOKEN_BEDROCK: 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl' }).stream(request, new AbortController().signal));
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream');
    expect(sent.headers['authorization']).toBe('Bearer ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl');
    expect(sent.headers['accept']).toBe('application/vnd.amazon.eventstream');
    expect(sent.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });
  });

  it('go to the region\'s bedrock-runtime endpoint unless baseUrl names another', () => {
    const spec = bedrockSpec('bedrock', MODEL, { type: 'bedrock', region: 'eu-central-1' }, { HOME: emptyHome, ...keys });
    expect(spec.baseUrl).toBe('https://bedrock-runtime.eu-central-1.amazonaws.com');
    expect(bedrockSpec('bedrock', MODEL, { type: 'bedrock', region: 'eu-central-1', baseUrl: 'https://vpce-1.bedrock-runtime.eu-central-1.vpce.amazonaws.com' }, { HOME: emptyHome, ...keys }).baseUrl).toBe(
      'https://vpce-1.bedrock-runtime.eu-central-1.vpce.amazonaws.com',
    );
  });
});
