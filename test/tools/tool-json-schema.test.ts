import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { readTool } from '../../src/tools/builtin/read.js';
import { prepareToolJsonSchemas, toolJsonSchema } from '../../src/tools/tool-json-schema.js';
import type { Tool } from '../../src/tools/tool.js';

describe('toolJsonSchema', () => {
  it('gives the model a draft-07 schema without the $schema keyword (Gemini rejects it)', () => {
    const schema = toolJsonSchema(readTool as unknown as Tool);
    expect(schema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    expect(schema).not.toHaveProperty('$schema');
  });

  it('makes one schema per zod schema: the bash tools of two projects share it', () => {
    const first = createBashTool() as unknown as Tool;
    const second = createBashTool() as unknown as Tool;
    expect(first).not.toBe(second);
    expect(toolJsonSchema(second)).toBe(toolJsonSchema(first));
  });

  it('takes a client or MCP tool’s own JSON Schema, less its dialect', () => {
    const jsonSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { q: { type: 'string' } } };
    const tool = { ...(readTool as unknown as Tool), name: 'client_tool', jsonSchema };
    expect(toolJsonSchema(tool)).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
  });

  it('prepares schemas in the background, a tool per turn of the event loop, without holding the caller', async () => {
    const calls: string[] = [];
    const spy = (name: string): Tool =>
      ({
        ...(readTool as unknown as Tool),
        name,
        get jsonSchema() {
          calls.push(name);
          return { type: 'object', title: name };
        },
      }) as Tool;
    prepareToolJsonSchemas([spy('a'), spy('b')]);
    expect(calls).toEqual([]);
    await nextTurn();
    expect(calls.length).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(new Set(calls)).toEqual(new Set(['a', 'b']));
  });
});
