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
  const known = cache.get(tool);
  if (known) return known;
  const schema = tool.jsonSchema ?? (z.toJSONSchema(tool.inputSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>);
  const { $schema: _dialect, ...rest } = schema;
  cache.set(tool, rest);
  return rest;
}
