import type { ToolSpec } from '../request.js';
import type { CohereToolNames } from './cohere-tool-names.js';
import type { CohereTool } from './cohere-types.js';

/**
 * Unified tools → Chat v2 `tools` (https://docs.cohere.com/v2/docs/tool-use-overview):
 * `{type: "function", function: {name, description, parameters}}`, `parameters` a JSON
 * Schema object, the name spelled the way Cohere accepts (CohereToolNames). Undefined
 * when there are none, so no empty list is sent.
 */
export function prepareCohereTools(tools: readonly ToolSpec[], names: CohereToolNames): CohereTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: names.spell(tool.name),
      description: tool.description,
      parameters: tool.inputSchema.type === undefined ? { type: 'object', ...tool.inputSchema } : tool.inputSchema,
    },
  }));
}
