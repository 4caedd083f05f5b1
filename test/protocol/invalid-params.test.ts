import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AbortSessionRequestSchema,
  BeforeToolCallResponseSchema,
  InitializeRequestSchema,
  JsonRpcMessageSchema,
  NewSessionRequestSchema,
  PromptRequestSchema,
  RegisterToolsRequestSchema,
  SessionNotificationSchema,
  SetSessionConfigOptionRequestSchema,
} from '../../protocol/index.js';

/** `prompt[0].type` style path, as the server reports it in -32602 `data.issues`. */
function pathOf(issue: z.core.$ZodIssue): string {
  return issue.path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

function issuesOf(schema: z.ZodType, value: unknown): Array<{ path: string; message: string }> {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((issue) => ({ path: pathOf(issue), message: issue.message }));
}

describe('invalid params name the offending field', () => {
  it('a bad content block type points at prompt[i].type', () => {
    const issues = issuesOf(PromptRequestSchema, {
      sessionId: 's',
      prompt: [{ type: 'text', text: 'ok' }, { type: 'txt', text: 'typo' }],
    });
    expect(issues).toEqual([{ path: 'prompt[1].type', message: expect.stringContaining("'text'") }]);
  });

  it('a missing field inside a block points at that field', () => {
    const issues = issuesOf(PromptRequestSchema, { sessionId: 's', prompt: [{ type: 'image', mimeType: 'image/png' }] });
    expect(issues.map((i) => i.path)).toEqual(['prompt[0].data']);
  });

  it('a missing sessionId is reported at sessionId', () => {
    expect(issuesOf(PromptRequestSchema, { prompt: [] }).map((i) => i.path)).toEqual(['sessionId']);
  });

  it('an unknown _meta.agentd.delivery is rejected with the allowed values', () => {
    const issues = issuesOf(PromptRequestSchema, { sessionId: 's', prompt: [], _meta: { agentd: { delivery: 'later' } } });
    expect(issues).toEqual([{ path: '_meta.agentd.delivery', message: expect.stringContaining('"steer"|"followUp"') }]);
  });

  it('a typo in initialize _meta.agentd is caught (strict agentd object)', () => {
    const issues = issuesOf(InitializeRequestSchema, { protocolVersion: 1, _meta: { agentd: { evnets: true } } });
    expect(issues).toEqual([{ path: '_meta.agentd', message: expect.stringContaining('evnets') }]);
  });

  it('unknown fields on agentd-only methods are errors, on ACP types they pass', () => {
    expect(issuesOf(AbortSessionRequestSchema, { sessionId: 's', keepQueue: true })).toEqual([
      { path: '', message: expect.stringContaining('keepQueue') },
    ]);
    expect(NewSessionRequestSchema.safeParse({ cwd: '/a', mcpServers: [], futureField: 1 }).success).toBe(true);
  });

  it('tool registration explains name and inputSchema rules', () => {
    const issues = issuesOf(RegisterToolsRequestSchema, {
      tools: [{ name: 'open file', description: 'x', inputSchema: { type: 'array' } }],
    });
    expect(issues).toEqual([
      { path: 'tools[0].name', message: expect.stringContaining('1-64 characters') },
      { path: 'tools[0].inputSchema.type', message: expect.stringContaining('must be "object"') },
    ]);
  });

  it('a rewrite decision without arguments points at arguments', () => {
    expect(issuesOf(BeforeToolCallResponseSchema, { decision: 'rewrite' })).toEqual([
      { path: 'arguments', message: expect.stringContaining('needs `arguments`') },
    ]);
  });

  it('an MCP server that fits no transport says what each needs', () => {
    const issues = issuesOf(NewSessionRequestSchema, { cwd: '/a', mcpServers: [{ type: 'http', name: 'x', url: 'http://127.0.0.1' }] });
    expect(issues).toEqual([{ path: 'mcpServers[0]', message: expect.stringContaining('{type: "http" | "sse", name, url, headers}') }]);
  });

  it('set_config_option explains both value forms', () => {
    const issues = issuesOf(SetSessionConfigOptionRequestSchema, { sessionId: 's', configId: 'model', value: 3 });
    expect(issues[0]?.message).toContain('type: "boolean"');
  });

  it('an unknown session update kind points at update.sessionUpdate', () => {
    const issues = issuesOf(SessionNotificationSchema, { sessionId: 's', update: { sessionUpdate: 'agent_message' } });
    expect(issues.map((i) => i.path)).toEqual(['update.sessionUpdate']);
  });

  it('classifies JSON-RPC envelopes', () => {
    expect(JsonRpcMessageSchema.safeParse({ jsonrpc: '2.0', id: 1, method: 'initialize' }).success).toBe(true);
    expect(JsonRpcMessageSchema.safeParse({ jsonrpc: '2.0', id: 1, result: null }).success).toBe(true);
    expect(JsonRpcMessageSchema.safeParse({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }).success).toBe(true);
    expect(JsonRpcMessageSchema.safeParse({ jsonrpc: '2.0', id: 1 }).success).toBe(false);
    expect(JsonRpcMessageSchema.safeParse({ jsonrpc: '1.0', id: 1, method: 'x' }).success).toBe(false);
  });
});
