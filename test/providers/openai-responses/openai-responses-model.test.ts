import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIResponsesModel } from '../../../src/providers/openai-responses/openai-responses-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { accumulateMessage, collectEvents } from '../../support/collect-events.js';
import { listFixtures, loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { replayAllSplits } from '../../support/replay-all-splits.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

const textRequest: ModelRequest = {
  model: 'gpt-5.1',
  system: [{ text: 'You are terse.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};

function openai(options: Partial<ConstructorParameters<typeof OpenAIResponsesModel>[0]> = {}): OpenAIResponsesModel {
  return new OpenAIResponsesModel({ provider: 'openai', modelId: 'gpt-5.1', baseUrl: `${server.url}/v1`, apiKey: 'sk-test-key-123456', ...options });
}

describe('OpenAIResponsesModel replaying every fixture over loopback', () => {
  for (const scenario of listFixtures('openai-responses')) {
    it(`${scenario}: whole, bytewise and at random splits`, async () => {
      const fixture = loadFixture('openai-responses', scenario);
      const model = openai();
      const outcomes = await replayAllSplits(server, fixture, () => model.stream(textRequest, new AbortController().signal));
      for (const { label, events } of outcomes) {
        expect(toComparableEvents(events), label).toEqual(toComparableEvents(fixture.expected.events));
        if (fixture.expected.message) expect(accumulateMessage(events), label).toEqual(fixture.expected.message);
      }
    });
  }
});

describe('OpenAIResponsesModel request shape', () => {
  const fixture = loadFixture('openai-responses', 'text-basic');
  const enqueueText = (): void => server.enqueue({ body: fixture.bytes });

  it('sends a stateless streaming body with instructions, input items, tools and reasoning', async () => {
    enqueueText();
    const request: ModelRequest = {
      model: 'gpt-5.1',
      system: [{ text: 'Role.' }, { text: 'Guidance.', cacheBoundary: true }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'Plan', redacted: 'enc', providerProtocol: 'openai-responses', providerData: { itemId: 'rs_1' } },
            { type: 'tool_call', id: 'call_1', name: 'read', args: { path: 'a.ts' }, providerData: { itemId: 'fc_1' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'x = 1' }] }] },
      ],
      tools: [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
      maxTokens: 2048,
      temperature: 0.2,
      thinking: 'high',
      stopSequences: ['END'],
    };
    await collectEvents(openai().stream(request, new AbortController().signal));
    const recorded = server.requests.at(-1);
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe('/v1/responses');
    expect(recorded?.headers['authorization']).toBe('Bearer sk-test-key-123456');
    expect(recorded?.headers['content-type']).toBe('application/json');
    expect(recorded?.headers['accept']).toBe('text/event-stream');
    expect(recorded?.body).toEqual({
      model: 'gpt-5.1',
      stream: true,
      store: false,
      instructions: 'Role.\n\nGuidance.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc', summary: [{ type: 'summary_text', text: 'Plan' }] },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a.ts"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'x = 1' },
      ],
      tools: [
        { type: 'function', name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false },
      ],
      max_output_tokens: 2048,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high', summary: 'auto' },
    });
  });

  it('sends temperature and no reasoning fields to a model that does not reason, and lets config headers win', async () => {
    enqueueText();
    const model = openai({ modelId: 'gpt-4.1', headers: { 'openai-organization': 'org-1', accept: 'text/event-stream; q=1' } });
    await collectEvents(model.stream({ ...textRequest, model: 'gpt-4.1', temperature: 0.5, thinking: 'low' }, new AbortController().signal));
    const recorded = server.requests.at(-1);
    expect(recorded?.headers['openai-organization']).toBe('org-1');
    expect(recorded?.headers['accept']).toBe('text/event-stream; q=1');
    expect(recorded?.body).toEqual({
      model: 'gpt-4.1',
      stream: true,
      store: false,
      instructions: 'You are terse.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      temperature: 0.5,
    });
  });

  it('omits the authorization header without a key', async () => {
    enqueueText();
    const model = new OpenAIResponsesModel({ provider: 'local', modelId: 'gpt-oss-20b', baseUrl: `${server.url}/v1/` });
    await collectEvents(model.stream({ ...textRequest, model: 'gpt-oss-20b' }, new AbortController().signal));
    const recorded = server.requests.at(-1);
    expect(recorded?.path).toBe('/v1/responses');
    expect(recorded?.headers['authorization']).toBeUndefined();
  });

  it('uses the Azure v1 path and the api-key header', async () => {
    enqueueText();
    const model = openai({ modelId: 'my-gpt5-deployment', baseUrl: server.url, azure: { apiVersion: 'v1' }, reasoning: true });
    await collectEvents(model.stream({ ...textRequest, model: 'my-gpt5-deployment' }, new AbortController().signal));
    const recorded = server.requests.at(-1);
    expect(recorded?.path).toBe('/openai/v1/responses');
    expect(recorded?.headers['api-key']).toBe('sk-test-key-123456');
    expect(recorded?.headers['authorization']).toBeUndefined();
    expect((recorded?.body as { model: string; include?: string[] }).model).toBe('my-gpt5-deployment');
    expect((recorded?.body as { include?: string[] }).include).toEqual(['reasoning.encrypted_content']);
  });

  it('uses the Azure dated path with api-version', async () => {
    enqueueText();
    const model = openai({ baseUrl: `${server.url}/`, azure: { apiVersion: '2025-04-01-preview' } });
    await collectEvents(model.stream(textRequest, new AbortController().signal));
    expect(server.requests.at(-1)?.path).toBe('/openai/responses?api-version=2025-04-01-preview');
  });

  it('rejects an empty base URL with the config key to fix', () => {
    expect(() => new OpenAIResponsesModel({ provider: 'openai', modelId: 'gpt-5', baseUrl: ' ' })).toThrow(/providers\.openai\.baseUrl/);
  });
});

describe('OpenAIResponsesModel failures', () => {
  const fixture = loadFixture('openai-responses', 'text-basic');
  // Cut right after the first complete output_text.delta event ("Hello").
  const bytes = Buffer.from(fixture.bytes);
  const cut = bytes.indexOf('\n\n', bytes.indexOf('"delta":"Hello"')) + 2;

  it('ends with an aborted error when the caller aborts a stalled stream', async () => {
    server.enqueue({ body: fixture.bytes, stallAfterBytes: cut });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of openai().stream(textRequest, controller.signal)) {
      events.push(event);
      // The first delta arrived and the server now hangs: the user presses stop.
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events.slice(0, -1)).toEqual([{ type: 'text-delta', text: 'Hello' }]);
    const last = events.at(-1);
    expect(last?.type === 'error' && [last.error.kind, last.error.midStream]).toEqual(['aborted', true]);
  });

  it('ends with a mid-stream network error when the connection drops', async () => {
    server.enqueue({ body: fixture.bytes, resetAfterBytes: cut });
    const events = await collectEvents(openai().stream(textRequest, new AbortController().signal));
    expect(events.slice(0, -1)).toEqual([{ type: 'text-delta', text: 'Hello' }]);
    const last = events.at(-1);
    expect(last?.type === 'error' && [last.error.kind, last.error.midStream]).toEqual(['network', true]);
  });
});
