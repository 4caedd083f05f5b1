import { parseAnthropicMessagesStream } from '../../src/providers/anthropic-messages/parse-anthropic-messages-stream.js';
import { parseGeminiStream } from '../../src/providers/gemini/parse-gemini-stream.js';
import { createOpenAIChatStreamParser } from '../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { createOpenAIResponsesStreamParser } from '../../src/providers/openai-responses/parse-openai-responses-stream.js';
import { createProviderRegistry } from '../../src/providers/registry/create-provider-registry.js';
import type { ModelRequest } from '../../src/providers/request.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';
import type { BenchProtocol } from './bench-transcript.js';
import { emptyTally, type Tally } from './tally.js';

interface PushParser {
  push(text: string): StreamEvent[];
  end(): StreamEvent[];
}

const context = { provider: 'bench', model: 'bench' };

/** Each protocol's stream parser, exactly as its model class creates it. */
const parsers: Record<BenchProtocol, () => PushParser> = {
  'openai-chat': () => createOpenAIChatStreamParser(context),
  'anthropic-messages': () => parseAnthropicMessagesStream(context),
  'openai-responses': () => createOpenAIResponsesStreamParser(context),
  gemini: () => parseGeminiStream(context),
};

/** The path under the loopback origin each protocol's base URL takes (as the presets write it). */
const basePaths: Record<BenchProtocol, string> = {
  'openai-chat': '/v1',
  'anthropic-messages': '',
  'openai-responses': '/v1',
  gemini: '',
};

/** The model ids sent; the loopback server ignores them. */
export const benchModelIds: Record<BenchProtocol, string> = {
  'openai-chat': 'gpt-4.1-mini',
  'anthropic-messages': 'claude-sonnet-4-6',
  'openai-responses': 'gpt-5.1',
  gemini: 'gemini-2.5-flash',
};

/** The one tool every request declares, agentd's and the SDKs' alike. */
export const benchTool = {
  name: 'read_file',
  description: 'Read a file of the workspace.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, startLine: { type: 'integer' }, endLine: { type: 'integer' }, reason: { type: 'string' } },
    required: ['path'],
  },
};

const request: ModelRequest = {
  model: '',
  system: [{ text: 'You are a benchmark.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Read the transport.' }] }],
  tools: [benchTool],
  maxTokens: 8192,
};

function countEvent(tally: Tally, event: StreamEvent): void {
  if (event.type === 'text-delta') tally.textChars += event.text.length;
  else if (event.type === 'tool-call-end') tally.toolCalls += 1;
  else if (event.type === 'error') throw event.error;
}

function count(tally: Tally, events: readonly StreamEvent[]): void {
  for (const event of events) countEvent(tally, event);
}

/**
 * agentd's parser alone: socket-sized chunks through a streaming TextDecoder into the
 * protocol's push parser, the same steps its model class takes per body chunk.
 */
export function agentdParserRun(protocol: BenchProtocol, chunks: readonly Uint8Array[]): () => Promise<Tally> {
  return async () => {
    const parser = parsers[protocol]();
    const decoder = new TextDecoder();
    const tally = emptyTally();
    for (const chunk of chunks) count(tally, parser.push(decoder.decode(chunk, { stream: true })));
    count(tally, parser.push(decoder.decode()));
    count(tally, parser.end());
    return tally;
  };
}

/**
 * agentd's whole model over HTTP, as the daemon runs it: resolved by the provider registry
 * from a config entry, so the model class, undici transport and idle watchdog, and the
 * withResilience wrapper (retries, circuit breaker) are all on the path.
 */
export function agentdModelRun(protocol: BenchProtocol, origin: string): () => Promise<Tally> {
  const registry = createProviderRegistry({
    config: { providers: { bench: { type: protocol, baseUrl: `${origin}${basePaths[protocol]}`, apiKey: 'bench-key' } } },
    env: {},
  });
  const model = registry.resolve(`bench/${benchModelIds[protocol]}`);
  return async () => {
    const tally = emptyTally();
    for await (const event of model.stream(request, new AbortController().signal)) countEvent(tally, event);
    return tally;
  };
}
