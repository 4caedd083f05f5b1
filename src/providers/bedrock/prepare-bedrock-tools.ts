import type { ToolSpec } from '../request.js';
import type { BedrockToolSpec } from './bedrock-types.js';

/**
 * Unified tools → Converse `toolConfig.tools` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html):
 * `{toolSpec: {name, description, inputSchema: {json}}}`. A schema without `type` gets
 * `type: "object"`, as the models behind Converse expect an object of arguments.
 */
export function prepareBedrockTools(tools: readonly ToolSpec[]): BedrockToolSpec[] {
  return tools.map((tool) => ({
    toolSpec: {
      name: tool.name,
      description: tool.description,
      inputSchema: { json: tool.inputSchema.type === undefined ? { type: 'object', ...tool.inputSchema } : tool.inputSchema },
    },
  }));
}
