import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseAccumulator } from '../../../src/loop/accumulate-response.js';
import { estimateMessageTokens } from '../../../src/loop/estimate-tokens.js';
import { AnthropicMessagesModel } from '../../../src/providers/anthropic-messages/anthropic-messages-model.js';
import { convertToGeminiMessages } from '../../../src/providers/gemini/convert-to-gemini-messages.js';
import type { AssistantMessage, ModelMessage } from '../../../src/providers/message.js';
import { convertToOpenAIChatMessages } from '../../../src/providers/openai-chat/convert-to-openai-chat-messages.js';
import { convertToOpenAIResponsesMessages } from '../../../src/providers/openai-responses/convert-to-openai-responses-messages.js';
import { replayEvents } from '../../../src/session/replay-events.js';
import { openStore } from '../../../src/store/open-store.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const webSearch = loadFixture('anthropic-messages', 'web-search-between-text-blocks');
const textOnly = loadFixture('anthropic-messages', 'text-only');

/** The server-tool blocks exactly as the transcript streams them, input assembled from its deltas. */
function blocksInTranscript(): Array<Record<string, unknown>> {
  const text = new TextDecoder().decode(webSearch.bytes);
  const starts = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? '') as Record<string, unknown>);
  const blocks: Array<Record<string, unknown>> = [];
  let input = '';
  for (const event of starts) {
    if (event.type === 'content_block_start') {
      const block = event.content_block as Record<string, unknown>;
      if (block.type !== 'text') blocks.push({ ...block });
      input = '';
    } else if (event.type === 'content_block_delta') {
      const delta = event.delta as Record<string, unknown>;
      if (delta.type === 'input_json_delta') input += String(delta.partial_json);
    } else if (event.type === 'content_block_stop' && input !== '') {
      const last = blocks.at(-1);
      if (last !== undefined) last.input = JSON.parse(input) as unknown;
      input = '';
    }
  }
  return blocks;
}

describe('Anthropic server-tool blocks', () => {
  let server: ReplayServer;
  let model: AnthropicMessagesModel;
  const dirs: string[] = [];

  beforeAll(async () => {
    server = await startReplayServer();
    model = new AnthropicMessagesModel({ provider: 'anthropic', modelId: 'claude-sonnet-4-5-20250929', baseUrl: `${server.url}/`, apiKey: 'sk-ant-test' });
  });
  afterAll(async () => {
    await server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Stream the web-search transcript and fold it as the loop does. */
  async function answer(): Promise<AssistantMessage> {
    server.enqueue({ body: webSearch.bytes });
    const accumulator = new ResponseAccumulator();
    const request = { model: 'claude-sonnet-4-5-20250929', system: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Weather in Paris?' }] }], tools: [] };
    for await (const event of model.stream(request, new AbortController().signal)) accumulator.push(event);
    return accumulator.result('anthropic-messages').message;
  }

  it('keeps text blocks apart and the server-tool blocks between them, stored and sent back unchanged', async () => {
    const parsed = await answer();
    expect(parsed.content.map((part) => part.type)).toEqual(['text', 'server_tool', 'server_tool', 'text', 'text']);

    // Through a real SQLite store, as a session keeps it.
    const dir = mkdtempSync(join(tmpdir(), 'agentd-server-tool-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'agentd.db'));
    await store.createSession({ id: 's1', cwd: dir });
    await store.appendMessage({ sessionId: 's1', turnId: 't1', role: 'assistant', content: parsed.content });
    const stored = await store.listMessages('s1');
    store.close();
    const reloaded: AssistantMessage = { role: 'assistant', content: stored[0]?.content as AssistantMessage['content'] };
    expect(reloaded).toEqual(parsed);

    server.enqueue({ body: textOnly.bytes });
    const history: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      reloaded,
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
    ];
    for await (const event of model.stream({ model: 'claude-sonnet-4-5-20250929', system: [], messages: history, tools: [] }, new AbortController().signal)) void event;
    const sent = (server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown[] }> }).messages[1];
    const [search, results] = blocksInTranscript();
    expect(sent).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: "I'll search for today's weather in Paris." },
        search,
        results,
        { type: 'text', text: "Here is today's weather in Paris:" },
        { type: 'text', text: 'Cloudy, with a high of 11°C.' },
      ],
    });
  });

  it('is skipped by the other protocols, counted by token estimation and shows only the text, parts apart, on session/load', async () => {
    const parsed = await answer();
    const history: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }, parsed];

    const chat = convertToOpenAIChatMessages([], history, { systemRole: 'system', replayReasoningContent: false });
    expect(chat[1]).toEqual({
      role: 'assistant',
      content: "I'll search for today's weather in Paris.\n\nHere is today's weather in Paris:\n\nCloudy, with a high of 11°C.",
    });
    const responses = convertToOpenAIResponsesMessages([], history);
    expect(JSON.stringify(responses)).not.toContain('srvtoolu_');
    expect(JSON.stringify(convertToGeminiMessages(history))).not.toContain('srvtoolu_');
    expect(convertToGeminiMessages(history)[1]?.parts).toHaveLength(3);

    const withoutBlocks: AssistantMessage = { role: 'assistant', content: parsed.content.filter((part) => part.type !== 'server_tool') };
    expect(estimateMessageTokens(parsed)).toBeGreaterThan(estimateMessageTokens(withoutBlocks) + 20);

    const base = { sessionId: 's', turnId: 't', status: 'complete' as const, model: null, usage: null, costUsd: null, meta: null, createdAt: '2026-11-25T00:00:00Z' };
    const replayed = replayEvents([{ ...base, seq: 1, id: 'm1', role: 'assistant', content: parsed.content }], [], () => {
      throw new Error('no tool call is described');
    });
    expect(replayed.map((r) => r.event)).toEqual([
      { type: 'text_delta', messageId: 'm1', text: "I'll search for today's weather in Paris." },
      { type: 'text_delta', messageId: 'm1', text: "\n\nHere is today's weather in Paris:" },
      { type: 'text_delta', messageId: 'm1', text: '\n\nCloudy, with a high of 11°C.' },
    ]);
  });
});
