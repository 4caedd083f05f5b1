import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamHttpModel, type HttpModelRequest } from '../../../src/providers/http/stream-http-model.js';
import { createOpenAIChatStreamParser } from '../../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const key = 'sk-shared-helper-key';

describe('streamHttpModel', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });

  function call(overrides: Partial<HttpModelRequest> = {}): HttpModelRequest {
    const context = { provider: 'replay', model: 'test-model' };
    return {
      protocol: 'openai-chat',
      ...context,
      url: `${server.url}/v1/chat/completions`,
      headers: { authorization: `Bearer ${key}` },
      body: () => ({ model: 'test-model', stream: true }),
      parser: createOpenAIChatStreamParser(context),
      classifyError: (status, text) => new ProviderError({ ...context, kind: 'bad_request', status, message: `HTTP ${status}: ${text}` }),
      secrets: [key, undefined],
      signal: new AbortController().signal,
      ...overrides,
    };
  }

  it('posts the body and streams the answer through the parser', async () => {
    server.enqueue({ body: loadFixture('openai-chat', 'text-with-usage').bytes });
    const events = await collectEvents(streamHttpModel(call()));
    expect(events.at(-1)?.type).toBe('stop');
    expect(server.requests.at(-1)?.body).toEqual({ model: 'test-model', stream: true });
  });

  it('answers a body that cannot be built with a bad_request naming the protocol, sending nothing', async () => {
    const before = server.requests.length;
    const events = await collectEvents(
      streamHttpModel(
        call({
          body: () => {
            throw new Error('thinkingBudgets.low is 1.5; fix the value');
          },
        }),
      ),
    );
    expect(toComparableEvents(events)).toEqual([
      { type: 'error', error: { kind: 'bad_request', message: 'replay (openai-chat): thinkingBudgets.low is 1.5; fix the value', midStream: false } },
    ]);
    expect(server.requests.length).toBe(before);
  });

  it('maps an HTTP error with the protocol mapper and keeps the key out of it', async () => {
    server.enqueue({ status: 400, headers: { 'content-type': 'application/json' }, body: `{"error":"bad key ${key}"}` });
    const events = await collectEvents(streamHttpModel(call()));
    expect(toComparableEvents(events)).toEqual([
      { type: 'error', error: { kind: 'bad_request', status: 400, message: 'HTTP 400: {"error":"bad key [redacted]"}', midStream: false } },
    ]);
  });
});
