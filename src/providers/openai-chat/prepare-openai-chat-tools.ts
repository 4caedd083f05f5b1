import type { ToolSpec } from '../request.js';
import type { ChatTool } from './openai-chat-api-types.js';

/**
 * Tool specs → Chat Completions `tools`
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools).
 * Undefined when there are none: several compatible servers reject `tools: []`.
 * `strict` is not set: strict mode rejects schemas with optional properties.
 */
export function prepareOpenAIChatTools(tools: readonly ToolSpec[]): ChatTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}
