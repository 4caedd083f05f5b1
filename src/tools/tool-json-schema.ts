import { z } from 'zod';
import type { Tool } from './tool.js';

const cache = new WeakMap<object, Record<string, unknown>>();

/**
 * The JSON Schema of a tool's arguments as the model gets it: the tool's own `jsonSchema`
 * (client and MCP tools) or `z.toJSONSchema` of its zod schema. Draft-07 with input
 * semantics (fields with defaults stay optional), the dialect every vendor accepts; the
 * `$schema` keyword is left out because some vendors (Gemini) reject unknown keywords.
 */
export function toolJsonSchema(tool: Tool): Record<string, unknown> {
  // Keyed by the schema, not the tool: a project's services make their own bash, skill and
  // web_fetch tools, all with their module's one schema.
  const source: object = tool.jsonSchema ?? tool.inputSchema;
  const known = cache.get(source);
  if (known) return known;
  const schema = tool.jsonSchema ?? (z.toJSONSchema(tool.inputSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>);
  const { $schema: _dialect, ...rest } = schema;
  cache.set(source, rest);
  return rest;
}

/**
 * Makes the JSON Schemas of the given tools in the background, a tool per turn of the
 * event loop, so that the first model request does not (zod's conversion of the built-in
 * tools takes milliseconds the first prompt would otherwise wait for).
 */
export function prepareToolJsonSchemas(tools: Tool[]): void {
  const next = (index: number): void => {
    const tool = tools[index];
    if (!tool) return;
    toolJsonSchema(tool);
    setImmediate(next, index + 1).unref();
  };
  setImmediate(next, 0).unref();
}
