import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../protocol/index.js';
import { ClientToolError, ClientTools } from '../../../src/tools/remote/client-tools.js';
import { createBuiltinTools, ToolRegistry } from '../../../src/tools/tool-registry.js';
import { makeContext, makeTempDir, textOf, type TempDir } from '../tool-test-context.js';
import { answerNext, peerPair } from './peer-pair.js';

const openInEditor: ToolDefinition = {
  name: 'open_in_editor',
  description: 'Open a file in the editor.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } }, required: ['path'] },
  access: 'read',
};

function registryWithBuiltins(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools()) registry.register(tool, { origin: 'builtin' });
  return registry;
}

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ClientToolError) return error.issues;
    throw error;
  }
  throw new Error('expected a ClientToolError');
}

describe('ClientTools', () => {
  let temp: TempDir;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('registers a client tool the model sees with its JSON Schema, kind and access', () => {
    const registry = registryWithBuiltins();
    const tools = new ClientTools(registry);
    const { connection } = peerPair();
    expect(tools.register(connection, [openInEditor, { ...openInEditor, name: 'deploy', access: undefined, kind: 'execute' }])).toEqual([
      'open_in_editor',
      'deploy',
    ]);
    const entry = registry.entry('open_in_editor');
    expect(entry).toMatchObject({ origin: 'client', tool: { kind: 'other', access: 'read' } });
    expect(registry.entry('deploy')).toMatchObject({ tool: { kind: 'execute', access: 'execute' } });
    expect(registry.specs().find((s) => s.name === 'open_in_editor')?.inputSchema).toEqual(openInEditor.inputSchema);
    expect(tools.ownerOf(entry!.tool)).toBe(connection);
    expect(registry.validateArgs('open_in_editor', { path: 'a.ts', line: 0 })).toEqual({
      ok: false,
      error: 'Invalid arguments for open_in_editor: line: must be >= 1',
    });
  });

  it('refuses invalid schemas, duplicates and clashes, naming tool and field, and registers none of the batch', () => {
    const registry = registryWithBuiltins();
    const tools = new ClientTools(registry);
    const a = peerPair('unix#1').connection;
    const b = peerPair('unix#2').connection;
    const broken = { ...openInEditor, name: 'broken', inputSchema: { type: 'object' as const, properties: { line: { type: 'integr' } } } };
    expect(issuesOf(() => tools.register(a, [openInEditor, broken]))).toEqual([
      'tools[1] ("broken").inputSchema.properties.line.type: must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string")',
      'tools[1] ("broken").inputSchema.properties.line.type: must be array',
      'tools[1] ("broken").inputSchema.properties.line.type: must match a schema in anyOf',
    ]);
    expect(registry.get('open_in_editor')).toBeUndefined();

    expect(issuesOf(() => tools.register(a, [{ ...openInEditor, name: 'read' }]))).toEqual([
      'tools[0] ("read").name: "read" is already taken by a built-in tool; choose another name',
    ]);
    expect(issuesOf(() => tools.register(a, [openInEditor, openInEditor]))).toEqual([
      'tools[1] ("open_in_editor").name: "open_in_editor" appears twice in this request; register each name once',
    ]);
    tools.register(a, [openInEditor]);
    expect(issuesOf(() => tools.register(b, [openInEditor]))).toEqual([
      'tools[0] ("open_in_editor").name: "open_in_editor" is already taken by a tool of another client (unix#1); choose another name',
    ]);
    // A session tool of another client under a daemon-wide name that session already sees.
    expect(issuesOf(() => tools.register(b, [{ ...openInEditor, sessionId: 's1' }]))[0]).toMatch(/already taken by a tool of another client \(unix#1\)/);
    // A daemon-wide tool may not shadow a name some session already has: the registry refuses, nothing stays.
    tools.register(b, [{ ...openInEditor, name: 'mine', sessionId: 's1' }]);
    expect(issuesOf(() => tools.register(a, [{ ...openInEditor, name: 'fresh' }, { ...openInEditor, name: 'mine' }]))).toEqual([
      'tools[1] ("mine"): A tool named "mine" is already registered for session s1 (origin client); choose another name or unregister it first.',
    ]);
    expect(registry.get('fresh')).toBeUndefined();
  });

  it('lets a client replace its own tool, scopes session tools, and unregisters only its own', () => {
    const registry = registryWithBuiltins();
    const tools = new ClientTools(registry);
    const a = peerPair('unix#1').connection;
    const b = peerPair('unix#2').connection;
    tools.register(a, [openInEditor]);
    tools.register(a, [{ ...openInEditor, description: 'Newer description.' }]);
    expect(registry.get('open_in_editor')?.description).toBe('Newer description.');
    tools.register(b, [{ ...openInEditor, name: 'session_only', sessionId: 's1' }]);
    expect(registry.get('session_only')).toBeUndefined();
    expect(registry.get('session_only', 's1')).toBeDefined();
    expect(registry.get('session_only', 's2')).toBeUndefined();

    expect(tools.unregister(b, ['open_in_editor', 'session_only', 'unknown'])).toEqual(['session_only']);
    expect(registry.get('open_in_editor')).toBeDefined();
    expect(registry.get('session_only', 's1')).toBeUndefined();
    expect(tools.unregister(a, ['open_in_editor'])).toEqual(['open_in_editor']);
    expect(registry.get('open_in_editor')).toBeUndefined();
  });

  it('sends tools/call to the registering client and maps its ACP content blocks', async () => {
    const registry = registryWithBuiltins();
    const tools = new ClientTools(registry);
    const { connection, client } = peerPair();
    tools.register(connection, [openInEditor]);
    const tool = registry.get('open_in_editor')!;
    const ctx = makeContext(temp.dir, { sessionId: 'ses-1', toolCallId: 'call-7' });
    const running = tool.execute({ path: 'a.ts', line: 3 }, ctx);
    const request = await answerNext(client, 'tools/call', {
      content: [
        { type: 'text', text: 'Opened a.ts at line 3.' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.ts', text: 'const a = 1;', mimeType: 'text/typescript' } },
        { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AAEC' } },
        { type: 'resource_link', uri: 'file:///b.ts', name: 'b.ts' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
    });
    expect(request.params).toEqual({ sessionId: 'ses-1', toolCallId: 'call-7', name: 'open_in_editor', arguments: { path: 'a.ts', line: 3 } });
    expect(await running).toEqual({
      content: [
        { type: 'text', text: 'Opened a.ts at line 3.' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', uri: 'file:///a.ts', text: 'const a = 1;', mimeType: 'text/typescript' },
        { type: 'text', text: '[binary resource file:///a.bin (unknown type, 3 bytes) not shown]' },
        { type: 'text', text: '[resource b.ts: file:///b.ts]' },
        { type: 'text', text: '[audio (audio/wav, 3 bytes) not shown]' },
      ],
    });

    const failing = tool.execute({ path: 'x' }, ctx);
    await answerNext(client, 'tools/call', { content: [{ type: 'text', text: 'no such file' }], isError: true });
    expect(await failing).toEqual({ content: [{ type: 'text', text: 'no such file' }], isError: true });

    const malformed = tool.execute({ path: 'x' }, ctx);
    await answerNext(client, 'tools/call', { content: 'oops' });
    const bad = await malformed;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^The client that provides tool "open_in_editor" answered tools\/call with an invalid result \(content: /);

    const erroring = tool.execute({ path: 'y' }, ctx);
    const pending = await client.waitFor((m) => m.method === 'tools/call' && m.params.arguments.path === 'y');
    client.send({ jsonrpc: '2.0', id: pending.id!, error: { code: -32015, message: 'editor is busy' } });
    expect(await erroring).toEqual({
      content: [{ type: 'text', text: 'The client that provides tool "open_in_editor" answered with an error: editor is busy' }],
      isError: true,
    });
  });

  it('times out and cancels with $/cancel_request, and reports an abort', async () => {
    const registry = registryWithBuiltins();
    const tools = new ClientTools(registry);
    const { connection, client } = peerPair('unix#9');
    tools.register(connection, [{ ...openInEditor, timeoutMs: 100 }, { ...openInEditor, name: 'slow' }]);
    const ctx = makeContext(temp.dir);
    const result = await registry.get('open_in_editor')!.execute({ path: 'a' }, ctx);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Tool "open_in_editor" got no answer from its client (unix#9) within 100 ms; the call was cancelled.' }],
      isError: true,
    });
    const first = client.received.find((m) => m.method === 'tools/call')!;
    await client.waitFor((m) => m.method === '$/cancel_request' && m.params.requestId === first.id);

    const controller = new AbortController();
    const aborted = registry.get('slow')!.execute({ path: 'a' }, makeContext(temp.dir, { signal: controller.signal }));
    const second = await client.waitFor((m) => m.method === 'tools/call' && m.params.name === 'slow');
    controller.abort();
    expect(textOf(await aborted)).toBe('The call to "slow" was cancelled.');
    await client.waitFor((m) => m.method === '$/cancel_request' && m.params.requestId === second.id);
  });

  it('ends in-flight calls clearly and removes the tools when the client disconnects', async () => {
    const registry = registryWithBuiltins();
    const tools = new ClientTools(registry);
    const { connection, client, close } = peerPair('unix#4');
    tools.register(connection, [openInEditor, { ...openInEditor, name: 'scoped', sessionId: 's1' }]);
    const running = registry.get('open_in_editor')!.execute({ path: 'a' }, makeContext(temp.dir));
    await client.waitFor((m) => m.method === 'tools/call');
    close();
    expect(await running).toEqual({
      content: [
        { type: 'text', text: 'The client that provided tool "open_in_editor" (unix#4) disconnected before answering; the tool is no longer available.' },
      ],
      isError: true,
    });
    expect(registry.get('open_in_editor')).toBeUndefined();
    expect(registry.get('scoped', 's1')).toBeUndefined();
    // The names are free again for another client.
    expect(tools.register(peerPair().connection, [openInEditor])).toEqual(['open_in_editor']);
  });
});
