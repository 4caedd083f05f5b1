import type { ToolSpec } from '../request.js';
import type { GeminiFunctionDeclaration } from './gemini-types.js';

/**
 * Unified tools → one Gemini `tools` entry of `functionDeclarations`.
 *
 * The arguments go in `parametersJsonSchema`, not `parameters`: FunctionDeclaration
 * (https://ai.google.dev/api/caching#FunctionDeclaration) documents it as "the parameters
 * to the function in JSON Schema format", mutually exclusive with `parameters`, which
 * only takes Gemini's OpenAPI-3.0 Schema subset and rejects common JSON Schema keywords
 * (`additionalProperties`, `$schema`, `exclusiveMinimum`, …) with "Invalid JSON payload
 * received. Unknown name …", a failure many agent frameworks have reported for MCP tools.
 * The `$schema` meta-keyword says nothing about the arguments and is dropped.
 */
export function prepareGeminiTools(tools: ToolSpec[]): Array<{ functionDeclarations: GeminiFunctionDeclaration[] }> {
  if (tools.length === 0) return [];
  return [
    {
      functionDeclarations: tools.map((tool) => {
        const { $schema: _ignored, ...schema } = tool.inputSchema;
        return {
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: schema.type === undefined ? { type: 'object', ...schema } : schema,
        };
      }),
    },
  ];
}
