/**
 * Splits a shell command line into its simple commands at `;`, `&`, `|`, `&&`, `||` and
 * newlines outside quotes, so each part can be checked against permission rules on its
 * own (`npm test && curl evil` is two commands, not one that starts with `npm test`).
 * Best effort, not a shell parser: substitutions stay inside their part, and the matcher
 * never lets an allow wildcard match `$(`, backticks or redirections.
 */
export function splitShellCommand(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (quote) {
      current += c;
      if (c === '\\' && quote === '"' && i + 1 < command.length) {
        current += command[i + 1] as string;
        i += 1;
      } else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) {
      current += c + (command[i + 1] as string);
      i += 1;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ';' || c === '&' || c === '|' || c === '\n') {
      parts.push(current);
      current = '';
      if ((c === '&' || c === '|') && command[i + 1] === c) i += 1;
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}
