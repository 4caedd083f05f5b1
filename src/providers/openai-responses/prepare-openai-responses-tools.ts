import type { ToolSpec } from '../request.js';
import type { ResponsesFunctionTool } from './openai-responses-api-types.js';

/**
 * Function tools in the Responses shape, which is flat (no nested `function` object as in
 * Chat Completions): https://platform.openai.com/docs/api-reference/responses/create#tools.
 * `strict: false` because strict mode requires every property to be `required` and
 * `additionalProperties: false`, which arbitrary MCP and client tool schemas do not satisfy.
 * Returns undefined for no tools so the body omits the field.
 */
export function prepareOpenAIResponsesTools(tools: ToolSpec[]): ResponsesFunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}
