import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { dispatchToolCalls, type ToolDispatchContext } from '../../src/loop/dispatch-tool-calls.js';
import type { LoopEvent } from '../../src/loop/loop-event.js';
import type { ToolCallRequest } from '../../src/loop/tool-call-request.js';
import { allowAllGate } from '../../src/tools/permission-gate.js';
import { FileStateTracker } from '../../src/tools/files/file-state-tracker.js';
import type { Tool } from '../../src/tools/tool.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';

/** A tool that takes `ms` to answer, optionally declaring its own time limit. */
function slowTool(name: string, ms: number, declared?: number): Tool<{ n?: number }> {
  return {
    name,
    description: 'waits',
    inputSchema: z.object({ n: z.number().optional() }),
    kind: 'other',
    access: 'read',
    title: () => name,
    ...(declared !== undefined ? { timeoutMs: () => declared } : {}),
    async execute(_args, ctx) {
      await delay(ms, undefined, { signal: ctx.signal });
      return { content: [{ type: 'text', text: `${name} done` }] };
    },
  };
}

function context(registry: ToolRegistry, events: LoopEvent[], overrides: Partial<ToolDispatchContext> = {}): ToolDispatchContext {
  return {
    registry,
    sessionId: 's1',
    cwd: '/tmp',
    refusal: () => undefined,
    permit: async () => ({ allowed: true }),
    toolContext: (call, signal, onProgress) => ({
      cwd: '/tmp',
      additionalDirectories: [],
      sessionId: 's1',
      toolCallId: call.id,
      signal,
      onProgress,
      permission: allowAllGate,
      fileState: new FileStateTracker(),
      dataDir: '/tmp',
      sandbox: { mode: 'none' },
    }),
    emit: (event) => events.push(event),
    steeringPending: () => false,
    ...overrides,
  };
}

describe('dispatchToolCalls', () => {
  it('cuts a call off at the loop limit, unless the tool declares a longer one', async () => {
    const registry = new ToolRegistry();
    registry.register(slowTool('plain', 300), { origin: 'builtin' });
    registry.register(slowTool('declared', 300, 1_000), { origin: 'builtin' });
    const events: LoopEvent[] = [];
    const result = await dispatchToolCalls(
      [
        { id: 'a', name: 'plain', args: {} },
        { id: 'b', name: 'declared', args: {} },
      ],
      context(registry, events, { timeoutMs: 50 }),
      new AbortController().signal,
    );
    expect(result.content.map((r) => [r.toolCallId, r.isError ?? false, (r.content[0] as { text: string }).text])).toEqual([
      ['a', true, 'Timed out after 50 ms; the tool was stopped.'],
      ['b', false, 'declared done'],
    ]);
  });

  it('answers every call in call order and announces each one', async () => {
    const registry = new ToolRegistry();
    registry.register(slowTool('slow', 60), { origin: 'builtin' });
    registry.register(slowTool('fast', 1), { origin: 'builtin' });
    const events: LoopEvent[] = [];
    const result = await dispatchToolCalls(
      [
        { id: '1', name: 'slow', args: {} },
        { id: '2', name: 'fast', args: {} },
        { id: '3', name: 'missing', args: {} },
      ],
      context(registry, events),
      new AbortController().signal,
    );
    expect(result.content.map((r) => r.toolCallId)).toEqual(['1', '2', '3']);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => (e as { toolCallId: string }).toolCallId)).toEqual(['1', '2', '3']);
    expect((result.content[2]!.content[0] as { text: string }).text).toMatch(/Unknown tool "missing"/);
  });

  it('answers a call without a name and a call whose arguments are no object with errors, and runs the rest', async () => {
    const registry = new ToolRegistry();
    let runs = 0;
    const counted: Tool<{ n?: number }> = { ...slowTool('count', 1), execute: async () => ({ content: [{ type: 'text', text: `run ${++runs}` }] }) };
    registry.register(counted, { origin: 'builtin' });
    const events: LoopEvent[] = [];
    // As a vendor stream or an old stored message may hand them over: the types say otherwise.
    const loose = [
      { id: 'nameless', name: undefined, args: { n: 1 } },
      { id: 'array', name: 'count', args: [1, 2] },
      { id: 'string', name: 'count', args: '{"n":1}' },
      { id: 'ok', name: 'count', args: { n: 1 } },
    ] as unknown as ToolCallRequest[];
    const result = await dispatchToolCalls(loose, context(registry, events), new AbortController().signal);
    expect(result.content.map((r) => [r.toolCallId, r.toolName, r.isError ?? false, (r.content[0] as { text: string }).text])).toEqual([
      ['nameless', 'unnamed_tool_call', true, 'This tool call could not be run: it has no tool name (the call has no tool name). Send the call again with the name of one of the available tools: count.'],
      ['array', 'count', true, 'The arguments for count could not be read (the arguments are not a JSON object: [1,2]); send the call again with complete arguments as a JSON object.'],
      ['string', 'count', true, 'The arguments for count could not be read (the arguments are not a JSON object: "{\\"n\\":1}"); send the call again with complete arguments as a JSON object.'],
      ['ok', 'count', false, 'run 1'],
    ]);
    expect(runs).toBe(1);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => [(e as { name: string }).name, (e as { rawInput: unknown }).rawInput])).toEqual([
      ['unnamed_tool_call', { n: 1 }],
      ['count', {}],
      ['count', {}],
      ['count', { n: 1 }],
    ]);
  });
});
