import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompactionTracker } from '../../src/loop/compaction-tracker.js';
import { Conversation } from '../../src/loop/conversation.js';
import type { LoopContext } from '../../src/loop/loop-context.js';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import { repairTranscript } from '../../src/loop/repair-transcript.js';
import { runLoop } from '../../src/loop/run-loop.js';
import { CostTracker, DaemonCostTotals } from '../../src/loop/track-cost.js';
import { GeminiModel } from '../../src/providers/gemini/gemini-model.js';
import type { LanguageModel } from '../../src/providers/language-model.js';
import type { ModelMessage } from '../../src/providers/message.js';
import type { ModelRequest } from '../../src/providers/request.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';
import { allowAllGate } from '../../src/tools/permission-gate.js';
import { FileStateTracker } from '../../src/tools/files/file-state-tracker.js';
import type { Tool } from '../../src/tools/tool.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** A model that answers each request with the next scripted list of events, and keeps the requests. */
class ScriptedModel implements LanguageModel {
  readonly provider = 'scripted';
  readonly modelId = 'scripted-1';
  readonly protocol = 'openai-chat';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly responses: StreamEvent[][]) {}
  async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    this.requests.push(structuredClone(request));
    yield* this.responses.shift() ?? [];
  }
}

/** `note` keeps what it was asked to write. */
function noteTool(written: string[]): Tool<{ text: string }> {
  return {
    name: 'note',
    description: 'keeps a note',
    inputSchema: z.object({ text: z.string() }),
    kind: 'other',
    access: 'read',
    title: () => 'note',
    async execute(args) {
      written.push(args.text);
      return { content: [{ type: 'text', text: 'noted' }] };
    },
  };
}

/** One session's loop on a real tool registry and real dispatch; only the model is scripted. */
function loopContext(model: LanguageModel, registry: ToolRegistry, history: ModelMessage[], events: LoopEvent[]): LoopContext {
  const signal = new AbortController().signal;
  const conversation = new Conversation(history);
  const emit = (event: LoopEvent): void => void events.push(event);
  return {
    port: {
      commit: async (message) => conversation.append(message),
      compacted: async (result) => conversation.replace(result.newHistory),
      emit,
      take: () => [],
      settingsForNextRequest: async (current) => current,
    },
    conversation,
    cost: new CostTracker(new DaemonCostTotals()),
    compaction: new CompactionTracker(),
    tools: () => ({
      registry,
      sessionId: 's1',
      cwd: '/tmp',
      permit: async () => ({ allowed: true }),
      toolContext: (call, toolSignal, onProgress) => ({
        cwd: '/tmp',
        additionalDirectories: [],
        sessionId: 's1',
        toolCallId: call.id,
        signal: toolSignal,
        onProgress,
        permission: allowAllGate,
        fileState: new FileStateTracker(),
        dataDir: '/tmp',
        sandbox: { mode: 'none' },
      }),
      emit,
      steeringPending: () => false,
    }),
    turn: {
      model: { ref: `${model.provider}/${model.modelId}`, model, contextWindow: 200_000, maxOutputTokens: 8_192, price: () => 0 },
      system: [{ text: 'You are terse.' }],
      tools: registry.specs(),
      refusal: () => undefined,
      maxTurns: 5,
      toolResultBudget: 100_000,
      signal,
      requestSignal: () => signal,
    },
  };
}

const prompt = (): ModelMessage[] => [{ role: 'user', content: [{ type: 'text', text: 'Take two notes.' }] }];

describe('a malformed tool call in a turn', () => {
  it('is answered to the model as an argument error and the turn goes on, from any vendor', async () => {
    const written: string[] = [];
    const registry = new ToolRegistry();
    registry.register(noteTool(written), { origin: 'builtin' });
    // What a parser may hand over: the types promise a name and an object, the wire did not.
    const broken = [
      { type: 'tool-call-end', id: 'c1', name: undefined, args: { text: 'a' } },
      { type: 'tool-call-end', id: 'c2', name: 'note', args: 'text=b' },
      { type: 'tool-call-end', id: 'c3', name: 'note', args: { text: 'c' } },
      { type: 'stop', reason: { unified: 'tool_use', raw: 'tool_calls' } },
    ] as unknown as StreamEvent[];
    const model = new ScriptedModel([broken, [{ type: 'text-delta', text: 'Noted c; a and b again next.' }, { type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } }]]);
    const history = prompt();
    const events: LoopEvent[] = [];

    const result = await runLoop(loopContext(model, registry, history, events));

    expect(result.stopReason).toBe('end_turn');
    expect(written).toEqual(['c']);
    // The second request carries the calls, well-formed, and an answer for each.
    expect(model.requests[1]!.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        model: 'scripted/scripted-1',
        content: [
          { type: 'tool_call', id: 'c1', name: 'unnamed_tool_call', args: { text: 'a' }, argsError: 'the call has no tool name' },
          { type: 'tool_call', id: 'c2', name: 'note', args: {}, argsError: 'the arguments are not a JSON object: "text=b"' },
          { type: 'tool_call', id: 'c3', name: 'note', args: { text: 'c' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'c1',
            toolName: 'unnamed_tool_call',
            content: [{ type: 'text', text: 'This tool call could not be run: it has no tool name (the call has no tool name). Send the call again with the name of one of the available tools: note.' }],
            isError: true,
          },
          {
            type: 'tool_result',
            toolCallId: 'c2',
            toolName: 'note',
            content: [{ type: 'text', text: 'The arguments for note could not be read (the arguments are not a JSON object: "text=b"); send the call again with complete arguments as a JSON object.' }],
            isError: true,
          },
          { type: 'tool_result', toolCallId: 'c3', toolName: 'note', content: [{ type: 'text', text: 'noted' }] },
        ],
      },
    ]);
    expect(events.filter((e) => e.type === 'notice')).toEqual([]);
  });

  it('loads a transcript stored with a nameless call and sends it on well-formed', () => {
    // What a version before the fix stored for a Gemini call with streamed arguments.
    const stored = [
      ...prompt(),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_r_0' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_r_0', content: [{ type: 'text', text: 'Unknown tool "undefined".' }], isError: true }] },
    ] as unknown as ModelMessage[];
    expect(repairTranscript(stored).slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_r_0', name: 'unnamed_tool_call', args: {}, argsError: 'the call has no tool name' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_r_0', toolName: 'unnamed_tool_call', content: [{ type: 'text', text: 'Unknown tool "undefined".' }], isError: true }] },
    ]);
  });
});

describe('a Gemini turn with streamed function-call arguments', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const sse = (chunks: unknown[]): string => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
  const parts = (list: unknown[], finishReason?: string): unknown => ({
    candidates: [{ content: { role: 'model', parts: list }, ...(finishReason !== undefined ? { finishReason } : {}) }],
    usageMetadata: { trafficType: 'ON_DEMAND' },
    modelVersion: 'gemini-3-flash-preview',
    responseId: 'LoOpTuRn01',
  });

  it('runs the assembled call, answers a call whose name never came, and sends both back', async () => {
    server.enqueue({
      body: sse([
        // A streamed call whose `{name, willContinue}` part is missing: arguments, then its end.
        parts([{ functionCall: { partialArgs: [{ jsonPath: '$.text', stringValue: 'lost' }], willContinue: true } }]),
        parts([{ functionCall: {} }]),
        parts([{ functionCall: { name: 'note', willContinue: true }, thoughtSignature: 'c2ln' }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath: '$.text', stringValue: 'Grüße, ', willContinue: true }], willContinue: true } }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath: '$.text', stringValue: 'Welt', willContinue: true }], willContinue: true } }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath: '$.text', stringValue: '' }], willContinue: true } }]),
        parts([{ functionCall: {} }], 'STOP'),
      ]),
    });
    server.enqueue({ body: sse([parts([{ text: 'Done.' }], 'STOP')]) });
    const written: string[] = [];
    const registry = new ToolRegistry();
    registry.register(noteTool(written), { origin: 'builtin' });
    const model = new GeminiModel({ provider: 'gemini', modelId: 'gemini-3-flash-preview', baseUrl: server.url, apiKey: 'AIzaSyLoopTestKey' });
    const events: LoopEvent[] = [];

    const result = await runLoop(loopContext(model, registry, prompt(), events));

    expect(result.stopReason).toBe('end_turn');
    expect(written).toEqual(['Grüße, Welt']);
    const second = server.requests[1]!.body as { contents: Array<{ role: string; parts: unknown[] }> };
    expect(second.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'unnamed_tool_call', args: { text: 'lost' } } },
          { functionCall: { name: 'note', args: { text: 'Grüße, Welt' } }, thoughtSignature: 'c2ln' },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'unnamed_tool_call',
              response: {
                error:
                  'This tool call could not be run: it has no tool name (the function call has no name). Send the call again with the name of one of the available tools: note.',
              },
            },
          },
          { functionResponse: { name: 'note', response: { output: 'noted' } } },
        ],
      },
    ]);
  });
});
