import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicMessagesModel } from '../../src/providers/anthropic-messages/anthropic-messages-model.js';
import { CohereModel } from '../../src/providers/cohere/cohere-model.js';
import { GeminiModel } from '../../src/providers/gemini/gemini-model.js';
import { CircuitBreaker } from '../../src/providers/http/circuit-breaker.js';
import { withResilience } from '../../src/providers/http/with-resilience.js';
import type { LanguageModel } from '../../src/providers/language-model.js';
import { OpenAIChatModel } from '../../src/providers/openai-chat/openai-chat-model.js';
import { OpenAIResponsesModel } from '../../src/providers/openai-responses/openai-responses-model.js';
import type { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelRequest } from '../../src/providers/request.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { collectEvents } from '../support/collect-events.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { startStreamsForever, type EndlessServer } from '../support/streams-forever.js';

/**
 * F18: one model response is bounded. A server streams a real vendor transcript's head
 * (test/fixtures/<protocol>/) and then one of its content events forever; the response
 * must end at the limit with an error naming it and the setting, keep what came before,
 * and let go of the connection.
 */
type Protocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini' | 'cohere';
const LIMIT = 64 * 1024;
const BIG = 'x'.repeat(8192);
/** A JSON string literal (escapes included), for swapping a delta's text for a long one. */
const STRING = '"(?:[^"\\\\]|\\\\.)*"';

function model(protocol: Protocol, url: string): LanguageModel {
  const common = { provider: 'p', modelId: 'm', apiKey: 'test-key-0000', maxResponseBytes: LIMIT };
  switch (protocol) {
    case 'openai-chat':
      return new OpenAIChatModel({ ...common, baseUrl: `${url}/v1` });
    case 'openai-responses':
      return new OpenAIResponsesModel({ ...common, baseUrl: `${url}/v1` });
    case 'anthropic-messages':
      return new AnthropicMessagesModel({ ...common, baseUrl: url });
    case 'gemini':
      return new GeminiModel({ ...common, baseUrl: url });
    case 'cohere':
      return new CohereModel({ ...common, baseUrl: url });
  }
}

/**
 * The fixture's events before the `nth` (from 0) whose `field` holds a non-empty string,
 * and that event with the string made long, to repeat (`fix` adjusts it first).
 */
function endless(
  protocol: Protocol,
  fixture: string,
  field: string,
  options: { fix?: (event: string) => string; nth?: number } = {},
): { head: string; frame: string } {
  const file = fileURLToPath(new URL(`../fixtures/${protocol}/${fixture}.sse`, import.meta.url));
  const fix = options.fix ?? ((e: string) => e);
  const events = readFileSync(file, 'utf8').split('\n\n').filter((e) => e.trim() !== '').map(fix);
  const pattern = new RegExp(`(${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*)${STRING}`);
  const matching = events.flatMap((e, i) => (pattern.exec(e)?.[0].endsWith('""') === false ? [i] : []));
  const at = matching[options.nth ?? 0];
  if (at === undefined) throw new Error(`${fixture}: no event with ${field}`);
  return { head: events.slice(0, at).map((e) => `${e}\n\n`).join(''), frame: `${events[at]!.replace(pattern, `$1"${BIG}"`)}\n\n` };
}

const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] };
const contentBytes = (events: StreamEvent[]): number =>
  events.reduce((sum, e) => sum + (e.type === 'text-delta' || e.type === 'thinking-delta' ? e.text.length : e.type === 'tool-call-delta' ? e.argsDelta.length : 0), 0);
const within = (promise: Promise<void>, ms: number): Promise<void> =>
  Promise.race([promise, new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`the connection was still open after ${ms} ms`)), ms))]);

describe('[F18 response-size] endless responses end at the limit', () => {
  let server: EndlessServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function run(protocol: Protocol, head: string, frame: string, wrap = (m: LanguageModel) => m): Promise<{ events: StreamEvent[]; error: ProviderError }> {
    server = await startStreamsForever(head, frame);
    const events = await collectEvents(wrap(model(protocol, server.url)).stream(request, new AbortController().signal));
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    await within(server.clientGone(), 3000);
    return { events, error: (last as { error: ProviderError }).error };
  }

  it.each<[string, Protocol, string, string, { fix?: (e: string) => string; nth?: number }?]>([
    ['text', 'openai-chat', 'text-with-usage', '"content":'],
    ['reasoning', 'openai-chat', 'reasoning-content-deepseek', '"reasoning_content":'],
    // Past the call's first piece: a piece repeating everything so far counts as a cumulative snapshot, not new text.
    ['tool arguments', 'openai-chat', 'tool-call-arguments-split', '"arguments":', { nth: 1 }],
    ['text', 'anthropic-messages', 'text-only', '"text_delta","text":'],
    ['thinking', 'anthropic-messages', 'thinking-with-signature', '"thinking_delta","thinking":'],
    ['tool arguments', 'anthropic-messages', 'tool-call-arguments-split', '"partial_json":'],
    ['text', 'openai-responses', 'text-basic', '"response.output_text.delta","sequence_number":4,"item_id":"msg_01text","output_index":0,"content_index":0,"delta":'],
    ['tool arguments', 'openai-responses', 'tool-call-arguments-split', '"output_index":0,"delta":'],
    ['text', 'gemini', 'text-only', '"text":'],
    // Gemini sends each call whole: an endless run of calls, each with a long argument.
    ['tool calls', 'gemini', 'function-call-without-thought-signature', '"args": {"x":', { fix: (e) => e.replace('"args": {}', '"args": {"x": "y"}').replace('"finishReason": "STOP",', '') }],
    ['text', 'cohere', 'text', '"content":{"text":'],
    ['thinking', 'cohere', 'reasoning-thinking-then-text', '"content":{"thinking":'],
    ['tool arguments', 'cohere', 'tool-plan-and-two-tool-calls', '"function":{"arguments":'],
  ])('[F18 response-size] endless %s over %s stops at the limit, keeps what came before and closes the connection', async (_what, protocol, fixture, field, options) => {
    const { head, frame } = endless(protocol, fixture, field, options);
    const { events, error } = await run(protocol, head, frame);
    expect(error.kind).toBe('response_too_large');
    expect(error.message).toContain(`the response went past ${LIMIT} bytes`);
    expect(error.message).toContain('raise providers.p.maxResponseBytes (now 65536) in config.json');
    expect(events.some((e) => e.type === 'stop')).toBe(false);
    expect(contentBytes(events)).toBeLessThanOrEqual(LIMIT);
    if (!fixture.startsWith('function-call')) expect(contentBytes(events)).toBeGreaterThan(LIMIT - 2 * BIG.length);
    else expect(events.filter((e) => e.type === 'tool-call-end').length).toBeGreaterThan(3);
  });

  it.each<Protocol>(['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini', 'cohere'])(
    '[F18 response-size] one SSE line that never ends over %s is cut at twice the limit',
    async (protocol) => {
      const { error } = await run(protocol, 'data: {"x":"', BIG);
      expect(error.kind).toBe('response_too_large');
      expect(error.message).toContain(`one event of the response stream (no end of event in sight) went past ${2 * LIMIT} bytes`);
      expect(error.midStream).toBe(false);
    },
  );

  it('[F18 response-size] endless data lines of one event (no blank line between them) are cut too', async () => {
    const { error } = await run('openai-chat', '', `data: ${BIG}\n`);
    expect(error.message).toContain('one event of the response stream');
  });

  it('[F18 response-size] an endless line after real text keeps the text and is flagged mid-stream', async () => {
    const { head } = endless('anthropic-messages', 'text-only', '"text_delta","text":');
    const first = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"kept"}}\n\n';
    const { events, error } = await run('anthropic-messages', `${head}${first}data: {"x":"`, BIG);
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('')).toBe('kept');
    expect(error.midStream).toBe(true);
  });

  it('[F18 response-size] a cut response is not retried (one request), even before any content', async () => {
    const breaker = new CircuitBreaker();
    const { error } = await run('openai-chat', 'data: {"x":"', BIG, (m) => withResilience(m, { breaker, sleep: async () => undefined, random: () => 0.5 }));
    expect(error.kind).toBe('response_too_large');
    expect(error.retryable).toBe(false);
  });
});

describe('[F18 response-size] in a session', () => {
  let endlessServer: EndlessServer;
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let cwd: string;
  let daemon: InProcessDaemon;
  afterEach(async () => {
    await daemon.close();
    await endlessServer.close();
    await replay.close();
    home.cleanup();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('[F18 response-size] an endless answer ends the turn with the error naming the setting, and the text before it is committed', async () => {
    const { head, frame } = endless('openai-chat', 'text-with-usage', '"content":');
    endlessServer = await startStreamsForever(head, frame);
    replay = await startReplayServer();
    cwd = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-endless-')));
    home = makeHome({
      model: 'endless/m',
      providers: {
        endless: { type: 'openai-chat', baseUrl: `${endlessServer.url}/v1`, maxResponseBytes: LIMIT },
        ok: { type: 'openai-chat', baseUrl: `${replay.url}/v1` },
      },
    });
    daemon = startInProcessDaemon(daemonEnv(home.home), cwd);
    await daemon.peer.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await daemon.peer.call('session/new', { cwd, mcpServers: [] });
    const answer = await daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await within(endlessServer.clientGone(), 3000);
    expect(JSON.stringify(answer)).toContain('raise providers.endless.maxResponseBytes (now 65536)');

    // The next request (to another model) carries what the cut response said.
    await daemon.peer.call('session/set_config_option', { sessionId, configId: 'model', value: 'ok/m' });
    replay.enqueue({ body: chatCompletionSse(['fine']) });
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    const messages = (replay.requests[0]!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const said = messages.filter((m) => m.role === 'assistant').map((m) => JSON.stringify(m.content)).join('');
    expect(said.length).toBeGreaterThan(LIMIT - 2 * BIG.length);
    expect(said.length).toBeLessThan(LIMIT + 1000);
  });
});
