import { parseShellCommand } from './parse-shell-command.js';

/**
 * Why no prefix allow rule can cover a command line part by part (bash evaluates part of
 * it, it writes to a file, sets PATH, does not parse, …), for the permission question and
 * the refusal the model reads; empty when nothing stands in the way. An evaluated
 * construct is named first, with its consequence: it matches every deny and ask rule.
 */
export async function commandCaveats(command: string): Promise<string[]> {
  const parsed = await parseShellCommand(command.trim());
  const evaluated =
    parsed.evaluated.length > 0
      ? [`it counts as matching every deny and ask rule, because bash evaluates what the rules cannot check: ${parsed.evaluated.join('; ')}`]
      : [];
  const parts = parsed.parts.flatMap((part) => (part.notAllowable ? [part.notAllowable] : []));
  return [...new Set([...evaluated, ...parsed.opaque, ...parts])];
}
