import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer } from '../../src/loop/estimate-tokens.js';
import type { AssistantMessage, ModelMessage, ToolMessage, UserMessage } from '../../src/providers/message.js';
import { OpenAIChatModel } from '../../src/providers/openai-chat/openai-chat-model.js';
import { compactContext, isSummaryMessage, SUMMARY_ACKNOWLEDGEMENT } from '../../src/loop/compact-context.js';
import { CompactionError } from '../../src/loop/compaction-error.js';
import { COMPACTION_SECTIONS, COMPACTION_SYSTEM_PROMPT, serializeTranscript } from '../../src/loop/compaction-prompt.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = (id: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'tool_call', id, name: 'read', args: { path: `${id}.ts` } }] });
const result = (id: string): ToolMessage => ({
  role: 'tool',
  content: [{ type: 'tool_result', toolCallId: id, toolName: 'read', content: [{ type: 'text', text: `source of ${id}` }] }],
});

/** 4 user turns, each with two tool rounds: 24 messages. */
const history: ModelMessage[] = Array.from({ length: 4 }, (_, turn) => [
  user(`request ${turn}`),
  call(`t${turn}a`),
  result(`t${turn}a`),
  call(`t${turn}b`),
  result(`t${turn}b`),
  answer(`answer ${turn}`),
]).flat();

function model(): OpenAIChatModel {
  return new OpenAIChatModel({ provider: 'local', modelId: 'summarizer', baseUrl: `${server.url}/v1` });
}


// The tokenizer loads on demand in the daemon; these tests count with it.
beforeAll(() => loadTokenizer());
describe('compactContext', () => {
  it('makes one summary request with no tools, the fixed sections and the serialized transcript', async () => {
    const before = server.requests.length;
    server.enqueue({ body: chatCompletionSse(['## Request and intent\n', 'Fix things.', '\n## Next step\nNone.']) });
    const frozen = structuredClone(history);
    const outcome = await compactContext({ model: model(), history, signal: new AbortController().signal, keepMessages: 6, keepTokens: 0, maxSummaryTokens: 2_000 });

    expect(server.requests.length).toBe(before + 1);
    const body = server.requests.at(-1)!.body as {
      tools?: unknown;
      max_tokens?: number;
      messages: Array<{ role: string; content: unknown; tool_calls?: unknown }>;
    };
    expect(body.tools).toBeUndefined();
    expect(body.max_tokens).toBe(2_000);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(JSON.stringify(body.messages[0]!.content)).toContain(COMPACTION_SYSTEM_PROMPT);
    const prompt = body.messages[1]!.content as string;
    expect(typeof prompt).toBe('string');
    for (const section of COMPACTION_SECTIONS) expect(prompt).toContain(`## ${section}`);
    // The first 18 messages are summarized (the cut before "request 3"), as plain text.
    expect(prompt).toContain(serializeTranscript(history.slice(0, 18)));
    expect(prompt).toContain('[tool call read (t0a)] {"path":"t0a.ts"}');
    expect(prompt).not.toContain('request 3');

    expect(outcome).toBeDefined();
    expect(outcome!.summary).toBe('## Request and intent\nFix things.\n## Next step\nNone.');
    expect(outcome!.replaced).toBe(18);
    expect(outcome!.usage).toMatchObject({ inputTokens: 12, outputTokens: 3 });
    // The kept part starts with a user message, so an acknowledgement keeps roles alternating.
    expect(outcome!.newHistory).toEqual([
      user(`<summary of the earlier conversation>\n${outcome!.summary}\n</summary>`),
      answer(SUMMARY_ACKNOWLEDGEMENT),
      ...history.slice(18),
    ]);
    expect(isSummaryMessage(outcome!.newHistory[0]!)).toBe(true);
    expect(isSummaryMessage(history[0]!)).toBe(false);
    expect(history).toEqual(frozen);
  });

  it('adds no acknowledgement when the kept part starts with an assistant message', async () => {
    server.enqueue({ body: chatCompletionSse(['Short summary.']) });
    const outcome = await compactContext({ model: model(), history, signal: new AbortController().signal, keepMessages: 3, keepTokens: 0 });
    // Three from the end is `call(t3b)`, after the complete exchange of t3a.
    expect(outcome!.replaced).toBe(21);
    expect(outcome!.newHistory.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(outcome!.newHistory[1]).toEqual(call('t3b'));
  });

  it('marks a summary cut off by the output limit', async () => {
    server.enqueue({ body: chatCompletionSse(['## Request and intent\nHalf'], { finishReason: 'length' }) });
    const outcome = await compactContext({ model: model(), history, signal: new AbortController().signal, keepMessages: 6, keepTokens: 0 });
    expect(outcome!.summary).toBe('## Request and intent\nHalf\n[The summary was cut off at the output limit.]');
  });

  it('throws a CompactionError carrying the provider error when the call fails', async () => {
    server.enqueue({ status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'model not loaded', type: 'invalid_request_error' } }) });
    const failure = await compactContext({ model: model(), history, signal: new AbortController().signal, keepMessages: 6, keepTokens: 0 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CompactionError);
    const error = failure as CompactionError;
    expect(error.providerError?.kind).toBe('bad_request');
    expect(error.message).toContain('local/summarizer');
    expect(error.message).toContain('model not loaded');
    expect(error.aborted).toBe(false);
  });

  it('throws when the model answers with no text', async () => {
    server.enqueue({ body: chatCompletionSse(['  ']) });
    await expect(compactContext({ model: model(), history, signal: new AbortController().signal, keepMessages: 6, keepTokens: 0 })).rejects.toThrow(
      'answered the summary request with no text',
    );
  });

  it('reports an abort as an aborted CompactionError', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await compactContext({ model: model(), history, signal: controller.signal, keepMessages: 6, keepTokens: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompactionError);
    expect((error as CompactionError).aborted).toBe(true);
  });

  it('returns undefined without a request when nothing is worth summarizing', async () => {
    const before = server.requests.length;
    const outcome = await compactContext({ model: model(), history: history.slice(0, 6), signal: new AbortController().signal });
    expect(outcome).toBeUndefined();
    expect(server.requests.length).toBe(before);
  });
});
