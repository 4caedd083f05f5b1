import type { ResponsesOutputItem } from './openai-responses-stream-schema.js';

/**
 * Output items OpenAI runs itself and reports in the answer (hosted tools); the answer
 * text that follows says what they found, so nothing needs telling.
 * https://platform.openai.com/docs/guides/tools
 */
const HOSTED_ITEM_TYPES = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
]);

/** Output items the loop reads: answer text, reasoning and function calls. */
const HANDLED_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call']);

/**
 * The notice for an output item agentd does not act on (`custom_tool_call`,
 * `shell_call`, `apply_patch_call`, `local_shell_call`, `computer_call`,
 * `mcp_approval_request`, and types added after this was written), or undefined for
 * items the loop handles or OpenAI ran itself. Such items wait for the client to run
 * them; left unsaid, the turn would end with an empty answer and no reason.
 */
export function describeUnhandledOutputItem(item: ResponsesOutputItem): string | undefined {
  if (HANDLED_ITEM_TYPES.has(item.type) || HOSTED_ITEM_TYPES.has(item.type)) return undefined;
  const name = typeof item.name === 'string' && item.name !== '' ? ` "${item.name}"` : '';
  return `The model sent an output item agentd does not run: ${item.type}${name}. It was ignored; only function tools are carried out.`;
}
