import type { ResponsesOtherOutputItem } from './openai-responses-stream-schema.js';

/**
 * Output items OpenAI runs itself and reports in the answer (hosted tools); the answer
 * text that follows says what they found, so nothing needs telling.
 * https://platform.openai.com/docs/guides/tools. Tool search (`tool_search_call` with a
 * null `call_id` and `arguments` as an object, then `tool_search_output`) says who runs it
 * in `execution`: `server` is hosted, `client` waits for the caller
 * (https://platform.openai.com/docs/api-reference/responses/object, output items).
 */
const HOSTED_ITEM_TYPES = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'tool_search_call',
  'tool_search_output',
]);

/**
 * The notice for an output item agentd does not act on (`custom_tool_call`,
 * `shell_call`, `apply_patch_call`, `local_shell_call`, `computer_call`,
 * `mcp_approval_request`, a tool search the client is asked to run, and types added
 * after this was written), or undefined for items OpenAI ran itself. Such items wait for
 * the client to run them; left unsaid, the turn would end with an empty answer and no
 * reason.
 */
export function describeUnhandledOutputItem(item: ResponsesOtherOutputItem): string | undefined {
  if (HOSTED_ITEM_TYPES.has(item.itemType) && item.execution !== 'client') return undefined;
  const name = item.name !== undefined && item.name !== '' ? ` "${item.name}"` : '';
  return `The model sent an output item agentd does not run: ${item.itemType}${name}. It was ignored; only function tools are carried out.`;
}
