import { showControlCharacters } from '../../config/show-control-characters.js';

/** Longest command shown in a question's title; the full text stays in the call's input. */
const MAX_COMMAND_CHARS = 2000;

/**
 * The title of a permission question: what the call will really do, never only what
 * the model or a tool says about it. A bash call's title is its command line (a
 * model-written `description` such as "Run the tests" could hide `curl … | sh`), with
 * newlines shown as ⏎ so a second command cannot hide on a line the client does not
 * show, and every other control character shown as an escape (`\r`, `\e`) so none can
 * rewrite what the client shows; an MCP tool's title also names the tool itself, since
 * its server chose the title. The model's description goes in `note`, labelled as the
 * model's words.
 */
export function questionTitle(tool: string, args: Record<string, unknown>, callTitle: string): { title: string; note?: string } {
  if (tool === 'bash' && typeof args.command === 'string') {
    const shown = showControlCharacters(args.command.trim(), { newline: ' ⏎ ' });
    const cut = shown.length > MAX_COMMAND_CHARS ? `${shown.slice(0, MAX_COMMAND_CHARS)}… (${shown.length - MAX_COMMAND_CHARS} more characters in the call's input)` : shown;
    const description = typeof args.description === 'string' && args.description.trim() !== '' ? showControlCharacters(args.description.trim()) : undefined;
    return { title: `Run: ${cut}`, ...(description ? { note: `The model describes this command as "${description}"` } : {}) };
  }
  // MCP tools (`<server>__<tool>`) carry titles their server chose; built-in titles are agentd's own.
  const title = tool.includes('__') && !callTitle.includes(tool) ? `${callTitle} (${tool})` : callTitle;
  return { title: showControlCharacters(title) };
}
