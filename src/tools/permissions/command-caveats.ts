import { parseShellCommand } from './parse-shell-command.js';

/**
 * Why no prefix allow rule can cover a command line part by part (it writes to a file,
 * sets PATH, has a computed command name, does not parse, …), for the permission
 * question and the refusal the model reads; empty when nothing stands in the way.
 */
export async function commandCaveats(command: string): Promise<string[]> {
  const parsed = await parseShellCommand(command.trim());
  return [...parsed.opaque, ...parsed.parts.flatMap((part) => (part.notAllowable ? [part.notAllowable] : []))];
}
