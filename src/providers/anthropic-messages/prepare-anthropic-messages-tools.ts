import type { ToolSpec } from '../request.js';
import type { AnthropicTool } from './anthropic-messages-types.js';

/**
 * Unified tools → Anthropic `tools` (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use):
 * `{name, description, input_schema}`, where input_schema is a JSON Schema object. A schema
 * without `type` gets `type: "object"`, which the API requires at the top level.
 */
export function prepareAnthropicMessagesTools(tools: ToolSpec[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema.type === undefined ? { type: 'object', ...tool.inputSchema } : tool.inputSchema,
  }));
}
