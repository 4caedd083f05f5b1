import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseAccumulator } from '../../src/loop/accumulate-response.js';
import { parseBedrockStream } from '../../src/providers/bedrock/parse-bedrock-stream.js';
import { CohereToolNames } from '../../src/providers/cohere/cohere-tool-names.js';
import { parseCohereStream } from '../../src/providers/cohere/parse-cohere-stream.js';
import { AnthropicMessagesModel } from '../../src/providers/anthropic-messages/anthropic-messages-model.js';
import { parseAnthropicMessagesStream } from '../../src/providers/anthropic-messages/parse-anthropic-messages-stream.js';
import { GeminiModel } from '../../src/providers/gemini/gemini-model.js';
import { parseGeminiStream } from '../../src/providers/gemini/parse-gemini-stream.js';
import type { LanguageModel } from '../../src/providers/language-model.js';
import type { AssistantMessage } from '../../src/providers/message.js';
import { OpenAIChatModel } from '../../src/providers/openai-chat/openai-chat-model.js';
import { createOpenAIChatStreamParser } from '../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { resolveReasoningTags } from '../../src/providers/openai-chat/resolve-reasoning-tags.js';
import { OpenAIResponsesModel } from '../../src/providers/openai-responses/openai-responses-model.js';
import { createOpenAIResponsesStreamParser } from '../../src/providers/openai-responses/parse-openai-responses-stream.js';
import type { ModelRequest } from '../../src/providers/request.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';
import { accumulateMessage } from '../support/collect-events.js';
import { listFixtures, loadFixture } from '../support/load-fixture.js';
import { replayAllSplits } from '../support/replay-all-splits.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

// "Every replay yields exactly the expected event sequence and final message": the
// per-protocol replay tests check the final message of the fixtures whose
// .expected.json names one. This file names it for every other fixture (a human
// reading of what the turn should keep: a call cut off by max tokens stays with its
// argsError, an error keeps the text before it, an HTTP error keeps nothing), replays
// those at every split, and checks that the loop's own reducer (ResponseAccumulator)
// agrees with the test reducer on all fixtures.

type Protocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini';
const protocols: readonly Protocol[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'];

const text = (value: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text: value }] });
const calls = (...parts: Array<{ id: string; name: string; args: Record<string, unknown> }>): AssistantMessage => ({
  role: 'assistant',
  content: parts.map((part) => ({ type: 'tool_call', ...part })),
});
const empty: AssistantMessage = { role: 'assistant', content: [] };

/** Final messages of the fixtures whose .expected.json has none; HTTP error fixtures keep nothing. */
const finalMessages: Record<Protocol, Record<string, AssistantMessage>> = {
  'openai-chat': {
    'content-filter-azure': text('I can'),
    'done-without-finish-reason': text('ok'),
    'error-event-mid-stream': text('Partial answer…'),
    'error-finish-reason-openrouter': text('Sure, here'),
    'error-frame-context-overflow': empty,
    'finish-length-tool-arguments-cut': {
      role: 'assistant',
      content: [
        {
          type: 'tool_call',
          id: 'call_long',
          name: 'write_file',
          args: {},
          argsError: 'the arguments of write_file are not valid JSON (cut off or malformed): {"path":"a.md","content":"# Ti',
        },
      ],
    },
    'finish-without-done': text('Done.'),
    'keepalive-and-comments': text('Grüß Gott'),
    'reasoning-field-openrouter': {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Let me think… done.' },
        { type: 'text', text: 'Hello!' },
      ],
    },
    refusal: text("I'm sorry, I can't help with that."),
    'stop-after-tool-calls': calls({ id: 'call_lwqzp3kc', name: 'get_current_weather', args: { format: 'celsius', location: 'Zürich' } }),
    'tool-call-arguments-before-name': calls({ id: 'call_late_name', name: 'bash', args: { command: 'ls -la' } }),
    'tool-call-cumulative-arguments': calls({ id: 'call_snap', name: 'search', args: { q: 'naïve bayes', k: 3 } }),
    'tool-call-missing-ids': calls(
      { id: 'call_0_04e305cd3bf6', name: 'list_dir', args: { path: '.' } },
      { id: 'call_1_fb5b96066472', name: 'grep', args: { pattern: 'TODO' } },
    ),
    'tool-call-missing-index': calls({ id: 'call_a1', name: 'read', args: { path: 'a.txt' } }, { id: 'call_b2', name: 'read', args: { path: 'b.txt' } }),
    'truncated-without-done': text('The first half'),
    'usage-x-groq': text('Fast.'),
  },
  'anthropic-messages': {
    'api-error-event-before-content': empty,
  },
  'openai-responses': {
    'crlf-line-endings-and-comments': text('Line one\nLine two — done'),
    'error-event-nested': empty,
    'error-event-top-level': empty,
    'incomplete-content-filter': text('Here is how'),
    'response-failed-rate-limit': empty,
    'stream-ends-before-completed': text('Partial answer'),
    'tool-call-cut-off-by-max-output-tokens': {
      role: 'assistant',
      content: [
        {
          type: 'tool_call',
          id: 'call_cut',
          name: 'write_file',
          args: {},
          argsError: 'the arguments of write_file are not valid JSON (cut off or malformed): {"path":"src/main.ts","content":"import',
          providerData: { itemId: 'fc_07cut' },
        },
      ],
    },
  },
  gemini: {},
};

const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] };

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

/** The models the per-protocol replay tests use (their provider and model ids appear in error messages). */
const models: Record<Protocol, () => LanguageModel> = {
  'openai-chat': () => new OpenAIChatModel({ provider: 'replay', modelId: 'test-model', baseUrl: `${server.url}/v1`, apiKey: 'sk-test' }),
  'anthropic-messages': () =>
    new AnthropicMessagesModel({ provider: 'anthropic', modelId: 'claude-sonnet-4-5-20250929', baseUrl: server.url, apiKey: 'sk-ant-test-key-0000' }),
  'openai-responses': () => new OpenAIResponsesModel({ provider: 'openai', modelId: 'gpt-5.1', baseUrl: `${server.url}/v1`, apiKey: 'sk-test-key-123456' }),
  gemini: () => new GeminiModel({ provider: 'gemini', modelId: 'gemini-2.5-flash', baseUrl: server.url, apiKey: 'AIzaSyReplayTestKey000000000000000000' }),
};

/** Each protocol's parser alone, for reducing a whole transcript without a server (for the model a transcript names, if any). */
const parsers: Record<Protocol, (model?: string) => { push(text: string): StreamEvent[]; end(): StreamEvent[] }> = {
  'openai-chat': (model = 'test-model') => createOpenAIChatStreamParser({ provider: 'replay', model }, { reasoningTags: resolveReasoningTags(undefined, model) }),
  'anthropic-messages': () => parseAnthropicMessagesStream({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' }),
  'openai-responses': () => createOpenAIResponsesStreamParser({ provider: 'openai', model: 'gpt-5.1' }),
  gemini: () => parseGeminiStream({ provider: 'gemini', model: 'gemini-2.5-flash' }, { fallbackIdPrefix: 'replay' }),
};

describe.each(protocols)('%s fixtures without a final message in their .expected.json', (protocol) => {
  const scenarios = listFixtures(protocol).filter((scenario) => loadFixture(protocol, scenario).expected.message === undefined);

  it.each(scenarios)('%s yields its final message at every split', async (scenario) => {
    const fixture = loadFixture(protocol, scenario);
    const isHttpError = (fixture.expected.status ?? 200) !== 200;
    const expected = finalMessages[protocol][scenario] ?? (isHttpError ? empty : undefined);
    if (expected === undefined) throw new Error(`${protocol}/${scenario}: name its final message in .expected.json or in finalMessages here`);
    const model = models[protocol]();
    const outcomes = await replayAllSplits(server, fixture, () => model.stream(request, new AbortController().signal));
    for (const { label, events } of outcomes) expect(accumulateMessage(events), label).toEqual(expected);
  });

  it('names no message for a fixture that does not exist', () => {
    const all = new Set(listFixtures(protocol));
    expect(Object.keys(finalMessages[protocol]).filter((scenario) => !all.has(scenario))).toEqual([]);
  });
});

describe.each(protocols)('%s: the loop reduces every fixture to the same message', (protocol) => {
  it.each(listFixtures(protocol).filter((scenario) => (loadFixture(protocol, scenario).expected.status ?? 200) === 200))('%s', (scenario) => {
    const fixture = loadFixture(protocol, scenario);
    const parser = parsers[protocol](fixture.expected.model);
    const events = [...parser.push(new TextDecoder().decode(fixture.bytes)), ...parser.end()];
    const accumulator = new ResponseAccumulator();
    for (const event of events) accumulator.push(event);
    const { message } = accumulator.result(protocol);
    // The loop tags reasoning with its protocol (replayed only there); the test reducer does not.
    for (const part of message.content) if (part.type === 'thinking') delete part.providerProtocol;
    expect(message).toEqual(fixture.expected.message ?? finalMessages[protocol][scenario] ?? accumulateMessage(events));
    expect(message).toEqual(accumulateMessage(events));
  });
});

/**
 * The wires that came later, whose fixtures all name their final message: the loop's
 * reducer must agree with it too. Vertex runs the Anthropic and Gemini parsers under its
 * own provider id; Copilot runs the openai-chat parser.
 */
const laterWires: Record<string, { protocol: string; parse(bytes: Uint8Array, model?: string): StreamEvent[] }> = {
  cohere: {
    protocol: 'cohere',
    parse: (bytes, model = 'command-a-03-2025') => {
      const parser = parseCohereStream({ provider: 'cohere', model }, new CohereToolNames());
      return [...parser.push(new TextDecoder().decode(bytes)), ...parser.end()];
    },
  },
  bedrock: {
    protocol: 'bedrock',
    parse: (bytes, model = 'us.anthropic.claude-sonnet-4-20250514-v1:0') => {
      const parser = parseBedrockStream({ provider: 'bedrock', model, region: 'us-east-1', credentialsFrom: 'the AWS_ACCESS_KEY_ID environment variable' });
      return [...parser.pushBytes!(bytes), ...parser.end()];
    },
  },
  'vertex/claude': {
    protocol: 'anthropic-messages',
    parse: (bytes, model = 'claude-sonnet-4-5@20250929') => {
      const parser = parseAnthropicMessagesStream({ provider: 'vertex', model });
      return [...parser.push(new TextDecoder().decode(bytes)), ...parser.end()];
    },
  },
  'vertex/gemini': {
    protocol: 'gemini',
    parse: (bytes, model = 'gemini-2.5-flash') => {
      const parser = parseGeminiStream({ provider: 'vertex', model });
      return [...parser.push(new TextDecoder().decode(bytes)), ...parser.end()];
    },
  },
  copilot: {
    protocol: 'openai-chat',
    parse: (bytes, model = 'gpt-4o') => {
      const parser = createOpenAIChatStreamParser({ provider: 'copilot', model }, { reasoningTags: resolveReasoningTags(undefined, model) });
      return [...parser.push(new TextDecoder().decode(bytes)), ...parser.end()];
    },
  },
};

/** Final messages of the later wires' fixtures whose .expected.json names none (an error mid-stream keeps the text before it). */
const laterFinalMessages: Record<string, Record<string, AssistantMessage>> = {
  'vertex/claude': { 'overloaded-error-event': text('Partial') },
};

describe.each(Object.keys(laterWires))('%s: the loop reduces every fixture to its final message', (wire) => {
  const scenarios = listFixtures(wire).filter((scenario) => (loadFixture(wire, scenario).expected.status ?? 200) === 200);
  const finalMessage = (scenario: string): AssistantMessage | undefined => loadFixture(wire, scenario).expected.message ?? laterFinalMessages[wire]?.[scenario];

  it('has fixtures, each with its final message named here or in its .expected.json, and names none that does not exist', () => {
    expect(scenarios.length).toBeGreaterThan(0);
    expect(scenarios.filter((scenario) => finalMessage(scenario) === undefined)).toEqual([]);
    expect(Object.keys(laterFinalMessages[wire] ?? {}).filter((scenario) => !scenarios.includes(scenario))).toEqual([]);
  });

  it.each(scenarios)('%s', (scenario) => {
    const fixture = loadFixture(wire, scenario);
    const { protocol, parse } = laterWires[wire]!;
    const events = parse(fixture.bytes, fixture.expected.model);
    const accumulator = new ResponseAccumulator();
    for (const event of events) accumulator.push(event);
    const { message } = accumulator.result(protocol);
    for (const part of message.content) {
      if (part.type !== 'thinking') continue;
      expect(part.providerProtocol).toBe(protocol);
      delete part.providerProtocol;
    }
    expect(message).toEqual(finalMessage(scenario));
    expect(message).toEqual(accumulateMessage(events));
  });
});
