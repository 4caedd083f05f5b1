import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readTool } from '../../src/tools/builtin/read.js';
import type { Tool } from '../../src/tools/tool.js';
import { createBuiltinTools, ToolRegistry } from '../../src/tools/tool-registry.js';

function clientTool(name: string, jsonSchema: Record<string, unknown>): Tool {
  return {
    name,
    description: `client tool ${name}`,
    inputSchema: z.record(z.string(), z.unknown()),
    jsonSchema,
    kind: 'other',
    access: 'execute',
    title: () => name,
    execute: () => Promise.resolve({ content: [{ type: 'text', text: 'ok' }] }),
  };
}

function withBuiltins(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools()) registry.register(tool, { origin: 'builtin' });
  return registry;
}

describe('ToolRegistry', () => {
  it('registers the built-ins and produces specs with JSON Schema', () => {
    const registry = withBuiltins();
    const names = registry.list().map((t) => t.tool.name);
    expect(names).toEqual(['read', 'write', 'edit', 'glob', 'grep', 'ls', 'bash', 'web_fetch', 'skill', 'todo']);
    const read = registry.specs().find((s) => s.name === 'read');
    expect(read?.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 1 }, limit: { maximum: 2000 } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(read?.inputSchema).not.toHaveProperty('$schema');
    for (const spec of registry.specs()) expect(spec.inputSchema.type).toBe('object');
  });

  it('rejects name collisions and invalid names with clear errors', () => {
    const registry = withBuiltins();
    expect(() => registry.register(readTool, { origin: 'client' })).toThrow(
      'A tool named "read" is already registered (origin builtin); choose another name or unregister it first.',
    );
    expect(() => registry.register(clientTool('read', { type: 'object' }), { origin: 'client', sessionId: 's1' })).toThrow(
      'already registered',
    );
    expect(() => registry.register(clientTool('bad name!', { type: 'object' }), { origin: 'mcp' })).toThrow('Invalid tool name "bad name!"');
    registry.register(clientTool('deploy', { type: 'object' }), { origin: 'client', sessionId: 's1' });
    expect(() => registry.register(clientTool('deploy', { type: 'object' }), { origin: 'mcp' })).toThrow(
      'already registered for session s1 (origin client)',
    );
    // Another session may use the same name for its own tool.
    registry.register(clientTool('deploy', { type: 'object' }), { origin: 'client', sessionId: 's2' });
  });

  it('scopes session tools and unregisters them', () => {
    const registry = withBuiltins();
    registry.register(clientTool('open_file', { type: 'object' }), { origin: 'client', sessionId: 's1' });
    expect(registry.get('open_file', 's1')?.name).toBe('open_file');
    expect(registry.get('open_file', 's2')).toBeUndefined();
    expect(registry.get('open_file')).toBeUndefined();
    expect(registry.entry('open_file', 's1')?.origin).toBe('client');
    expect(registry.list('s1').map((t) => t.tool.name)).toContain('open_file');
    expect(registry.specs({ sessionId: 's1' }).map((s) => s.name)).toContain('open_file');
    expect(registry.unregister('open_file', 's1')).toBe(true);
    expect(registry.unregister('open_file', 's1')).toBe(false);
    registry.register(clientTool('x', { type: 'object' }), { origin: 'client', sessionId: 's3' });
    registry.unregisterSession('s3');
    expect(registry.get('x', 's3')).toBeUndefined();
    expect(registry.unregister('bash')).toBe(true);
    expect(registry.get('bash')).toBeUndefined();
  });

  it('filters specs by names, exclusions and access', () => {
    const registry = withBuiltins();
    expect(registry.specs({ names: ['read', 'grep'] }).map((s) => s.name)).toEqual(['read', 'grep']);
    expect(registry.specs({ exclude: ['bash', 'web_fetch'] }).map((s) => s.name)).not.toContain('bash');
    expect(registry.specs({ access: ['read', 'search'] }).map((s) => s.name)).toEqual(['read', 'glob', 'grep', 'ls', 'skill', 'todo']);
  });

  it('validates arguments with messages that name the field', () => {
    const registry = withBuiltins();
    expect(registry.validateArgs('read', { path: 'a.ts' })).toEqual({ ok: true, args: { path: 'a.ts' } });
    expect(registry.validateArgs('read', { path: 5 })).toEqual({ ok: false, error: 'Invalid arguments for read: path: must be string' });
    expect(registry.validateArgs('read', {})).toEqual({ ok: false, error: 'Invalid arguments for read: path: is required' });
    expect(registry.validateArgs('read', { path: 'a', colour: 1 })).toEqual({
      ok: false,
      error: 'Invalid arguments for read: colour: is not allowed (unknown field)',
    });
    const limit = registry.validateArgs('read', { path: 'a', limit: 5000 });
    expect(limit).toEqual({ ok: false, error: 'Invalid arguments for read: limit: must be <= 2000' });
    const edit = registry.validateArgs('edit', { path: 'a', edits: [{ old: 'x' }] });
    expect(edit).toEqual({ ok: false, error: 'Invalid arguments for edit: edits.0.new: is required' });
    const mode = registry.validateArgs('grep', { pattern: 'x', mode: 'lines' });
    expect(mode.ok).toBe(false);
    expect(!mode.ok && mode.error).toContain('mode: must be equal to one of the allowed values ("content", "files", "count")');
    expect(registry.validateArgs('nope', {})).toMatchObject({ ok: false, error: expect.stringContaining('Unknown tool "nope". Available tools: read,') });
    expect(registry.validateArgs('read', [1])).toEqual({ ok: false, error: 'Invalid arguments for read: expected a JSON object, got an array.' });
  });

  it('validates client tools against their own JSON Schema (draft-07 and 2020-12), filling defaults', () => {
    const registry = new ToolRegistry();
    registry.register(
      clientTool('greet', { type: 'object', properties: { name: { type: 'string' }, loud: { type: 'boolean', default: false } }, required: ['name'] }),
      { origin: 'client' },
    );
    registry.register(
      clientTool('sum', {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { values: { type: 'array', prefixItems: [{ type: 'number' }], items: false } },
      }),
      { origin: 'mcp' },
    );
    expect(registry.validateArgs('greet', { name: 'Ada' })).toEqual({ ok: true, args: { name: 'Ada', loud: false } });
    expect(registry.validateArgs('sum', { values: [1] }).ok).toBe(true);
    expect(registry.validateArgs('sum', { values: [1, 2] })).toMatchObject({ ok: false });
    expect(registry.specs().find((s) => s.name === 'sum')?.inputSchema).not.toHaveProperty('$schema');
  });

  it('refuses a tool whose JSON Schema is invalid, at registration', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(clientTool('broken', { type: 'object', properties: { a: { type: 'no-such-type' } } }), { origin: 'client' })).toThrow(
      'The JSON Schema of tool "broken" is invalid',
    );
    expect(registry.get('broken')).toBeUndefined();
  });
});
